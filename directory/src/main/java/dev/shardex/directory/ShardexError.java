package dev.shardex.directory;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransientConnectionException;

/**
 * Every error Shardex raises, with a stable id, an SQLState and a message that says what happened,
 * where, and what to do. The README's error table is this list; route fixtures pin the texts.
 *
 * <p>Messages never carry a password: callers pass shard ids and password-free URLs only.
 */
public enum ShardexError {
  // 22: data
  NULL_KEY("SHX1001", "22004", "the shard key of table %s is NULL; rows of a SHARDED table need a key value"),
  BAD_KEY("SHX1002", "22018", "key value '%s' for table %s is not a valid %s key"),
  // 42: the statement itself
  PARSE("SHX1101", "42000", "cannot parse the statement (%s); rewrite it, or send it to one shard with a hint /* shardex:shard=N */ and shardex.hints=true"),
  BAD_HINT("SHX1102", "42000", "bad hint %s: %s"),
  BAD_DECLARATION("SHX1103", "42000", "bad declaration %s: %s"),
  TOO_DEEP("SHX1104", "42000", "the statement nests brackets %d levels deep, more than the %d Shardex parses; flatten it (fewer nested subqueries or parentheses)"),
  // 0A: routing rules a statement breaks
  NO_KEY_WRITE("SHX1201", "0A000", "%s on SHARDED table %s has no key: add %s = ? or %s IN (...) to its WHERE clause, or set shardex.scatterWrites=allow to run it on every shard"),
  INSERT_NO_KEY("SHX1202", "0A000", "INSERT into SHARDED table %s does not set its key column %s: add %s to the column list"),
  KEY_CHANGE("SHX1203", "0A000", "UPDATE of table %s sets its shard key %s to a key owned by shard %d while the row lives on shard %d: delete and re-insert the row, or move the key with 'shardex users move'"),
  KEY_SET_WITHOUT_KEY("SHX1204", "0A000", "UPDATE of table %s sets its shard key %s without naming the current key in WHERE: add %s = ? to the WHERE clause"),
  CROSS_KEYSPACE("SHX1205", "0A000", "statement joins %s (key space %s) and %s (key space %s): tables of different key spaces live on different shards; query them separately"),
  JOIN_NOT_ON_KEY("SHX1206", "0A000", "statement combines SHARDED tables %s without joining them on their keys (%s) or giving each the same key: their rows may live on different shards; join on the key columns or query them separately"),
  CROSS_SHARD("SHX1207", "0A000", "%s needs shards %s but %s; %s"),
  INSERT_SELECT("SHX1208", "0A000", "INSERT ... SELECT into SHARDED table %s is not supported: read the rows, then insert them"),
  UNSUPPORTED("SHX1209", "0A000", "%s is not supported: %s"),
  MULTI_TABLE_WRITE("SHX1210", "0A000", "multi-table %s touching %s is not supported unless every SHARDED table has the same key on one shard: add the key to each table's WHERE"),
  // 25 / 0A: transactions
  BEST_EFFORT_PARTIAL("SHX1302", "HY000", "best_effort commit: shards %s committed, shards %s did not (%s); the transaction is now partly applied: repair the failed shards' rows or retry that part"),
  SECOND_SHARD("SHX1301", "0A000", "transaction already runs on shard %d and this statement needs shard %s; shardex.transactions=single allows one shard per transaction: commit first, or route the statement by the same key"),
  // 08: shards and the directory
  SHARD_UNREACHABLE("SHX1401", "08001", "shard %d (%s) is unreachable: %s; statements routed to it fail until it is back, other shards keep working"),
  SHARD_OFFLINE("SHX1402", "08004", "shard %d is OFFLINE: statements for its keys are refused; bring it back with 'shardex shards set-status %d ONLINE'"),
  SHARD_READ_ONLY("SHX1403", "25006", "shard %d is READ_ONLY: writes to it are refused until 'shardex shards set-status %d ONLINE'"),
  UNKNOWN_SHARD("SHX1404", "08004", "shard %d is not in the directory's shard catalog; 'shardex shards list' shows the shards"),
  NO_SHARD("SHX1405", "08004", "no ONLINE shard is in the directory's shard catalog: add one with 'shardex shards add'"),
  DIRECTORY_UNREACHABLE("SHX1406", "08001", "the directory %s is unreachable: %s"),
  LEASE_LAPSED("SHX1407", "08006", "write refused: this driver's directory lease lapsed (last successful poll %d ms ago, shardex.leaseMs=%d), so its cached routes may be stale; retry once the directory at %s is reachable again"),
  FROZEN_TIMEOUT("SHX1408", "HYT00", "write to key %s of key space %s waited %d ms while the key is being moved (shardex.frozenWaitMs=%d); retry, or check 'shardex moves list'"),
  POOL_EXHAUSTED("SHX1409", "HYT00", "shard %d (%s): all %d connections of this driver instance's pool are in use and none came free within %d ms; close result sets, statements and connections sooner, or raise shardex.poolSize / shardex.connectTimeoutMs"),
  SHARD_REFUSED("SHX1410", "08004", "shard %d (%s) refused the connection: %s; check the user, password and grants for that server (shard.%d.user / shard.%d.password override them) and its max_connections"),
  SHARD_TIMEOUT("SHX1411", "HYT00", "shard %d (%s) did not answer within the network timeout (Connection.setNetworkTimeout or socketTimeout): %s; its connection was closed; retry, or raise the timeout"),
  // HY: driver state and configuration
  BAD_OPTION("SHX1501", "HY024", "option %s has the invalid value '%s': %s"),
  CLOSED("SHX1502", "08003", "%s is closed"),
  DDL_PARTIAL("SHX1503", "HY000", "%s applied on shards %s but failed on shards %s: %s; fix the cause and re-run it with IF [NOT] EXISTS so it applies everywhere"),
  DIRECTORY_STATE("SHX1504", "HY000", "%s"),
  WRITE_PARTIAL("SHX1505", "HY000", "%s applied on shards %s but failed on shards %s: %s; outside a transaction the shards that applied it keep the change: retry the failed shards' keys"),
  INTERNAL("SHX1509", "HY000", "internal error in Shardex while running '%s': %s; the statement may have run on some shards or none; please report it with the statement"),
  CANCELLED("SHX1510", "70100", "the statement was cancelled by Statement.cancel() (%s)"),
  QUERY_TIMEOUT("SHX1511", "HYT00", "shard %d (%s): the statement ran past its query timeout (Statement.setQueryTimeout) and was killed there: %s; raise the timeout or make the query cheaper"),
  // 55 / HY: moves and the admin CLI
  MOVE_REFUSED("SHX1601", "55000", "cannot move key %s of key space %s: %s"),
  ACK_TIMEOUT("SHX1602", "HYT00", "move %d of key %s: %d live client(s) did not apply change %d within %d ms (%s); %s"),
  COPY_MISMATCH("SHX1603", "HY000", "move %d of key %s: the copy on shard %d does not match shard %d (%s); the copy was rolled back, the key stays on shard %d"),
  SOURCE_CHANGED("SHX1604", "HY000", "move %d of key %s stopped: its rows on shard %d changed after the copy (%s) by a writer outside Shardex; nothing was deleted and the key is ACTIVE on shard %d; compare the two copies, reconcile by hand, then delete the old rows ('shardex verify' lists them)"),
  MOVE_BUSY("SHX1605", "55006", "move %d is being run by another process; wait for it, or check 'shardex moves list'"),
  SHARD_NOT_EMPTY("SHX1606", "55000", "shard %d still holds %s; move them off first ('shardex users move --from %d --count N --to M', or set its weight to 0 and run 'shardex rebalance apply')"),
  UNKNOWN_MOVE("SHX1607", "42000", "%s");

  private final String id;
  private final String sqlState;
  private final String format;

  ShardexError(String id, String sqlState, String format) {
    this.id = id;
    this.sqlState = sqlState;
    this.format = format;
  }

  public String id() {
    return id;
  }

  public String sqlState() {
    return sqlState;
  }

  /** Whether an exception is this error (by its stable id, which every message starts with). */
  public boolean is(java.sql.SQLException e) {
    return e.getMessage() != null && e.getMessage().startsWith("Shardex " + id + ":");
  }

  public String message(Object... args) {
    return "Shardex " + id + ": " + String.format(java.util.Locale.ROOT, format, args);
  }

  public SQLException exception(Object... args) {
    return withCause(null, args);
  }

  /** The exception subclass follows the SQLState class, so callers can catch by JDBC category. */
  public SQLException withCause(Throwable cause, Object... args) {
    String message = message(args);
    SQLException e;
    if (this == LEASE_LAPSED || this == SHARD_UNREACHABLE || this == DIRECTORY_UNREACHABLE) {
      e = new SQLTransientConnectionException(message, sqlState);
    } else if (sqlState.startsWith("08")) {
      e = new SQLNonTransientConnectionException(message, sqlState);
    } else if (sqlState.startsWith("0A")) {
      e = new SQLFeatureNotSupportedException(message, sqlState);
    } else if (sqlState.startsWith("42")) {
      e = new SQLSyntaxErrorException(message, sqlState);
    } else if (sqlState.startsWith("22")) {
      e = new SQLDataException(message, sqlState);
    } else if (sqlState.startsWith("HYT")) {
      e = new java.sql.SQLTimeoutException(message, sqlState);
    } else {
      e = new SQLException(message, sqlState);
    }
    if (cause != null) {
      e.initCause(cause);
      if (cause instanceof SQLException sql) {
        e.setNextException(sql);
      }
    }
    return e;
  }
}
