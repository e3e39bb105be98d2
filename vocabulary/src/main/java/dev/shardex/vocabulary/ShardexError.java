package dev.shardex.vocabulary;

import java.sql.SQLException;

/**
 * Every error Shardex raises, with a stable id, an SQLState and a message that says what happened,
 * where, and what to do. The error table of docs/errors.md is this list; route fixtures pin the texts.
 *
 * <p>Messages never carry a password: callers pass shard ids and password-free URLs only.
 */
public enum ShardexError {
  // 22: data
  NULL_KEY("SHX1001", SqlState.NULL_VALUE, "the shard key of table %s is NULL; rows of a SHARDED table need a key value"),
  BAD_KEY("SHX1002", SqlState.BAD_VALUE, "key value %s for key column %s of table %s %s: %s"),
  // 42: the statement itself
  PARSE("SHX1101", SqlState.SYNTAX, "cannot parse the statement (%s); rewrite it, or send it to one shard with a hint /* shardex:shard=N */ and shardex.hints=true"),
  BAD_HINT("SHX1102", SqlState.SYNTAX, "bad hint %s: %s"),
  BAD_DECLARATION("SHX1103", SqlState.SYNTAX, "bad declaration %s: %s"),
  TOO_DEEP("SHX1104", SqlState.SYNTAX, "the statement nests brackets %d levels deep, more than the %d Shardex parses; flatten it (fewer nested subqueries or parentheses)"),
  // 0A: routing rules a statement breaks. Not 0A000: HikariCP (and other pools) take 0A000 for a dead connection
  // and evict it; a refused statement leaves the connection healthy, so these use the subclass S00.
  NO_KEY_WRITE("SHX1201", SqlState.REFUSED, "%s on SHARDED table %s has no key: add %s = ? or %s IN (...) to its WHERE clause, or set shardex.scatterWrites=allow to run it on every shard"),
  INSERT_NO_KEY("SHX1202", SqlState.REFUSED, "INSERT into SHARDED table %s does not set its key column %s: add %s to the column list. An ORM's unidirectional one-to-many (Hibernate's @OneToMany @JoinColumn) inserts the child without %s and sets it by a later UPDATE: map the relation bidirectionally with @ManyToOne on the child, or @JoinColumn(nullable = false), so Hibernate inserts the key with the row; or run it inside a transaction, where Shardex holds a row with a sequence-filled id until that UPDATE"),
  KEY_CHANGE("SHX1203", SqlState.REFUSED, "UPDATE of table %s sets its shard key %s %s: delete and re-insert the row, or move the key with 'shardex users move'"),
  KEY_SET_WITHOUT_KEY("SHX1204", SqlState.REFUSED, "UPDATE of table %s sets its shard key %s without naming the current key in WHERE: add %s = ? to the WHERE clause"),
  CROSS_KEYSPACE("SHX1205", SqlState.REFUSED, "statement joins %s (key space %s) and %s (key space %s): tables of different key spaces live on different shards; query them separately"),
  JOIN_NOT_ON_KEY("SHX1206", SqlState.REFUSED, "statement combines SHARDED tables %s without joining them on their keys (%s) or giving each the same key: their rows may live on different shards, and %s; join on the key columns or query them separately"),
  CROSS_SHARD("SHX1207", SqlState.REFUSED, "%s needs shards %s but %s; %s"),
  INSERT_SELECT("SHX1208", SqlState.REFUSED, "INSERT ... SELECT into table %s is refused: %s; %s"),
  JOIN_TOO_LARGE("SHX1220", SqlState.REFUSED, "cross-shard join of table %s: its %s side returned more than %d rows (shardex.maxMergeRows); add a key or a tighter filter to that side, or raise the option"),
  JOIN_TOO_WIDE("SHX1221", SqlState.REFUSED, "cross-shard statement over table %s: the rows given to one shard would take %d bytes of JSON, more than %d; add a key or a tighter filter, or read fewer columns"),
  UNSUPPORTED("SHX1209", SqlState.REFUSED, "%s is not supported: %s"),
  MULTI_TABLE_WRITE("SHX1210", SqlState.REFUSED, "multi-table %s touching %s is not supported unless every SHARDED table has the same key on one shard: add the key to each table's WHERE"),
  PENDING_ROW("SHX1212", SqlState.REFUSED, "%s of table %s while rows inserted without their key %s wait for it (%s %s): the statement could not see them; set their key first (UPDATE %s SET %s = ? WHERE %s = ?), or insert them with their key"),
  PENDING_LIMIT("SHX1213", SqlState.REFUSED, "INSERT into table %s without its key %s: this connection already holds %d rows waiting for their key; set their keys (UPDATE %s SET %s = ? WHERE %s = ?) before inserting more, or insert rows with their key"),
  UPSERT_KEY("SHX1211", SqlState.REFUSED, "%s into SHARDED table %s is refused: its %s does not contain the shard key %s, so the row it collides with may live on another shard and would be duplicated instead of replaced; add %s to that key, or find the row by that key first and UPDATE it (or INSERT a new one) by its shard key"),
  LOOKUP_VALUE("SHX1214", SqlState.REFUSED, "%s of table %s gives its lookup column %s %s, so the lookup index (lookup=%s) cannot be kept; %s"),
  UPSERT_LOOKUP("SHX1215", SqlState.REFUSED, "%s into table %s %s, which Shardex cannot do exactly across shards; %s"),
  // 25 / 0A: transactions
  BEST_EFFORT_PARTIAL("SHX1302", SqlState.GENERAL, "best_effort commit: shards %s committed, shards %s did not (%s); the transaction is now partly applied: repair the failed shards' rows or retry that part"),
  SECOND_SHARD("SHX1301", SqlState.REFUSED, "transaction already runs on shard %d and this statement needs shard %s; shardex.transactions=single allows one shard per transaction: commit first, route the statement by the same key, or use shardex.transactions=atomic (the default: all shards commit or none)"),
  PENDING_COMMIT("SHX1305", SqlState.REFUSED, "commit refused: %d row(s) inserted into %s without their key %s never got it (%s %s); the transaction is still open: set their key (UPDATE %s SET %s = ? WHERE %s = ?) and commit, or roll back"),
  ATOMIC_ROLLED_BACK("SHX1303", SqlState.ROLLED_BACK, "cross-shard transaction %s rolled back on shards %s before its commit point: %s; nothing of it was applied: retry it"),
  ATOMIC_UNKNOWN("SHX1304", SqlState.GENERAL, "cross-shard transaction %s: the commit of origin shard %d failed (%s) and its outcome cannot be read yet; recovery (at start, every 30 s, or 'shardex recover') commits or rolls back all its shards together once shard %d answers"),
  // 57 (resource not available): one shard or the directory. Not class 08, which pools read as "this logical
  // connection is dead": it is not, the other shards keep working. 57S01 is transient (retry), 57S02 needs an operator.
  SHARD_UNREACHABLE("SHX1401", SqlState.UNREACHABLE, "shard %d (%s) is unreachable: %s; statements routed to it fail until it is back, other shards keep working"),
  SHARD_OFFLINE("SHX1402", SqlState.NEEDS_OPERATOR, "shard %d is OFFLINE: statements for its keys are refused; bring it back with 'shardex shards set-status %d ONLINE'"),
  SHARD_READ_ONLY("SHX1403", SqlState.READ_ONLY, "shard %d is READ_ONLY: writes to it are refused until 'shardex shards set-status %d ONLINE'"),
  UNKNOWN_SHARD("SHX1404", SqlState.NEEDS_OPERATOR, "shard %d is not in the directory's shard catalog; 'shardex shards list' shows the shards"),
  NO_SHARD("SHX1405", SqlState.NEEDS_OPERATOR, "no ONLINE shard is in the directory's shard catalog: add one with 'shardex shards add'"),
  DIRECTORY_UNREACHABLE("SHX1406", SqlState.UNREACHABLE, "the directory %s is unreachable: %s"),
  LEASE_LAPSED("SHX1407", SqlState.UNREACHABLE, "write refused: this driver's directory lease lapsed (last successful poll %d ms ago, shardex.leaseMs=%d), so its cached routes may be stale; retry once the directory at %s is reachable again"),
  FROZEN_TIMEOUT("SHX1408", SqlState.TIMEOUT, "write to key %s of key space %s waited %d ms while the key is being moved (shardex.frozenWaitMs=%d); retry, or check 'shardex moves list'"),
  ACCESS_DENIED("SHX1409", SqlState.ACCESS_DENIED, "access denied for user '%s' at the directory %s (%s): check the user and password; Shardex checks them on every connection"),
  SHARD_REFUSED("SHX1410", SqlState.NEEDS_OPERATOR, "shard %d (%s) refused the connection: %s; check the user, password and grants for that server (shard.%d.user / shard.%d.password override them) and its max_connections"),
  SHARD_TIMEOUT("SHX1411", SqlState.TIMEOUT, "shard %d (%s) did not answer within the network timeout (Connection.setNetworkTimeout or socketTimeout): %s; its connection was closed; retry, or raise the timeout"),
  POOL_EXHAUSTED("SHX1412", SqlState.TIMEOUT, "shard %d (%s): all %d connections of this driver instance's pool are in use and none came free within %d ms; close result sets, statements and connections sooner, or raise shardex.poolSize / shardex.connectTimeoutMs"),
  UNKNOWN_REPLICA("SHX1417", SqlState.NEEDS_OPERATOR, "replica %d of shard %d is not in the directory's replica catalog; 'shardex shards replicas list' shows the replicas"),
  // HY: driver state and configuration
  BAD_OPTION("SHX1501", SqlState.BAD_OPTION, "option %s has the invalid value '%s': %s"),
  CLOSED("SHX1502", SqlState.CONNECTION_CLOSED, "%s is closed"),
  DDL_PARTIAL("SHX1503", SqlState.GENERAL, "%s applied on shards %s but failed on shards %s: %s; fix the cause and re-run it with IF [NOT] EXISTS so it applies everywhere"),
  DIRECTORY_STATE("SHX1504", SqlState.GENERAL, "%s"),
  WRITE_PARTIAL("SHX1505", SqlState.GENERAL, "%s applied on shards %s but failed on shards %s: %s; outside a transaction the shards that applied it keep the change: retry the failed shards' keys"),
  INTERNAL("SHX1509", SqlState.GENERAL, "internal error in Shardex while running '%s': %s; %s; please report it with the statement"),
  CANCELLED("SHX1510", SqlState.CANCELLED, "the statement was cancelled by Statement.cancel() (%s)"),
  QUERY_TIMEOUT("SHX1511", SqlState.TIMEOUT, "shard %d (%s): the statement ran past its query timeout (Statement.setQueryTimeout) and was killed there: %s; raise the timeout or make the query cheaper"),
  // 55 / HY: moves and the admin CLI
  MOVE_REFUSED("SHX1601", SqlState.WRONG_STATE, "cannot move key %s of key space %s: %s"),
  ACK_TIMEOUT("SHX1602", SqlState.TIMEOUT, "move %d of key %s: %d live client(s) did not apply change %d within %d ms (%s); %s"),
  COPY_MISMATCH("SHX1603", SqlState.GENERAL, "move %d of key %s: the copy on shard %d does not match shard %d (%s); the copy was rolled back, the key stays on shard %d"),
  SOURCE_CHANGED("SHX1604", SqlState.GENERAL, "move %d of key %s stopped: its rows on shard %d changed after the copy (%s) by a writer outside Shardex; nothing was deleted and the key is ACTIVE on shard %d; compare the two copies, reconcile by hand, then delete the old rows ('shardex verify' lists them)"),
  MOVE_BUSY("SHX1605", SqlState.IN_USE, "move %d is being run by another process; wait for it, or check 'shardex moves list'"),
  SHARD_NOT_EMPTY("SHX1606", SqlState.WRONG_STATE, "shard %d still holds %s; move them off first ('shardex users move --from %d --count N --to M', or set its weight to 0 and run 'shardex rebalance apply')"),
  UNKNOWN_MOVE("SHX1607", SqlState.SYNTAX, "%s"),
  CAPTURE_LOCK("SHX1609", SqlState.TIMEOUT, "the change-capture lock on source shard %s was not granted within 30 s: another move is starting or ending its capture there; retry the move"),
  MOVES_INTERRUPTED("SHX1610", SqlState.INTERRUPTED, "interrupted while running moves; the journal keeps each move's step: 'shardex moves resume' finishes them"),
  MOVE_FAILED("SHX1611", SqlState.GENERAL, "a move failed unexpectedly: %s; the journal keeps its step: 'shardex moves list' shows it"),
  CATCHUP_BEHIND("SHX1612", SqlState.TIMEOUT, "move %d of key %s stopped before the freeze: its catch-up from the change record on shard %d did not converge (%s), and freezing now would hold the key's writes for the whole backlog; the move was rolled back: the key stays ACTIVE on shard %d and its draft copy on shard %d is removed; retry when the key is written less, or allow more rounds without progress (--catch-up-stall-rounds, --catch-up-stall-ms)"),
  LOOKUP_CONFLICT("SHX1608", SqlState.INTEGRITY, "lookup %s.%s is unique but value '%s' is held by key %s on shard %d and key %s on shard %d; the backfill left the first entry: make the rows unique, then run 'shardex lookups build' for it again"),
  // 07 / 24 / 3B / HY: a JDBC call the application made out of order (its connection stays healthy)
  USED_AFTER_CLOSE("SHX1701", SqlState.SEQUENCE, "%s is closed: create a new one from the connection, which stays open"),
  NO_RESULT_SET("SHX1702", SqlState.GENERAL, "the statement did not return a result set; use execute() or executeUpdate()"),
  RESULT_SET_RETURNED("SHX1703", SqlState.GENERAL, "the statement returned a result set; use executeQuery() or execute()"),
  PARAMETER_INDEX("SHX1704", SqlState.BAD_INDEX, "parameter index %d is out of range (they start at 1)"),
  PARAMETER_NOT_SET("SHX1705", SqlState.PARAMETER_NOT_SET, "parameter %d of %d is not set"),
  NO_CURRENT_ROW("SHX1706", SqlState.INVALID_CURSOR, "no current row; call next() first"),
  COLUMN_INDEX("SHX1707", SqlState.BAD_COLUMN, "column %d is out of range 1..%d"),
  COLUMN_NOT_FOUND("SHX1708", SqlState.NO_SUCH_COLUMN, "column '%s' not found"),
  NOT_A_WRAPPER("SHX1709", SqlState.GENERAL, "not a wrapper for %s"),
  NEEDS_TRANSACTION("SHX1710", SqlState.SAVEPOINT, "%s needs a transaction: call setAutoCommit(false) first"),
  NO_SUCH_SAVEPOINT("SHX1711", SqlState.SAVEPOINT, "savepoint %s does not exist in this transaction"),
  BAD_URL("SHX1712", SqlState.CANNOT_CONNECT, "%s"),
  SHARD_READ_FAILED("SHX1713", SqlState.GENERAL, "a shard read failed: %s"),
  PARAMETER_UNBOUND("SHX1714", SqlState.PARAMETER_NOT_SET, "parameter %d of '%s' is not set"),
  PARAMETER_RANGE("SHX1715", SqlState.BAD_INDEX, "parameter index out of range (%d %s)"),
  NOT_A_NUMBER("SHX1716", SqlState.NUMERIC_RANGE, "parameter %d: '%s' is not a valid numeric or approximate numeric value"),
  LOB_FREED("SHX1717", SqlState.SEQUENCE, "the %s was freed: create a new one from the connection"),
  LOB_POSITION("SHX1718", SqlState.NUMERIC_RANGE, "position %d is outside the %s (length %d)"),
  NULL_SQL("SHX1719", SqlState.SYNTAX, "the SQL text is null"),
  JDBC_UNSUPPORTED("SHX1720", SqlState.REFUSED, "%s is not supported: %s"),
  // HY / 3D / 55: shardex analyze's inputs
  ANALYZE_NO_DATABASE("SHX1801", SqlState.NO_DATABASE, "the schema URL %s names no database: end it with /DATABASE"),
  ANALYZE_NO_DIGESTS("SHX1802", SqlState.WRONG_STATE, "performance_schema is off on this server, so its digest table is empty: start it with --performance-schema=ON (MariaDB's default is OFF), run the application, then analyze again");

  private final String id;
  private final SqlState sqlState;
  private final String format;

  ShardexError(String id, SqlState sqlState, String format) {
    this.id = id;
    this.sqlState = sqlState;
    this.format = format;
  }

  public String id() {
    return id;
  }

  public String sqlState() {
    return sqlState.code();
  }

  /** The SQLState as its meaning. */
  public SqlState state() {
    return sqlState;
  }

  /** Whether an exception is this error (raised by Shardex as this entry; the text is not consulted). */
  public boolean is(Throwable e) {
    return of(e) == this;
  }

  /** The Shardex error an exception is, or null when Shardex did not raise it (a shard's or the JDK's). */
  public static ShardexError of(Throwable e) {
    return e instanceof Raised r ? r.error() : null;
  }

  public String message(Object... args) {
    return "Shardex " + id + ": " + String.format(java.util.Locale.ROOT, format, args);
  }

  public SQLException exception(Object... args) {
    return withCause(null, args);
  }

  /** This entry's exception where JDBC requires SQLFeatureNotSupportedException (an entry of SQLState class 0A). */
  public java.sql.SQLFeatureNotSupportedException featureNotSupported(Object... args) {
    return (java.sql.SQLFeatureNotSupportedException) exception(args);
  }

  /**
   * The exception subclass follows the SQLState class, so callers can catch by JDBC category. The cause is
   * kept as the cause only, never as a next exception: pools walk that chain for SQLStates that mean a dead
   * connection (a shard's 08S01 inside SHX1401 would make HikariCP evict a healthy logical connection).
   */
  public SQLException withCause(Throwable cause, Object... args) {
    SQLException e = RaisedExceptions.create(this, message(args));
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  /** What every exception Shardex raises implements: its entry here, so nothing sorts errors by their text. */
  public interface Raised {
    ShardexError error();
  }
}
