package dev.shardex.vocabulary;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The one classifier for every SQLException Shardex raises or receives from a shard, a shard's pool or the
 * directory. The driver translates by it (a lost physical connection becomes SHX1401 naming the shard, the
 * rest passes through as the database said it), the CLI picks its exit code by it, and the directory's
 * {@code Retry} decides by it what to run again. Nothing else reads SQLStates or vendor codes, and nothing
 * sorts errors by message text.
 *
 * <p>The SQLStates behind it are chosen for the pool an application puts in front of Shardex: class 08 (and
 * 0A000) tell HikariCP the logical connection is dead, so Shardex uses them only for a connection that is
 * (closed, or never opened). A refusal ({@code 0AS00}) and a shard or directory that is down ({@code 57S01},
 * {@code 57S02}) leave the logical connection healthy: other shards keep working.
 */
public enum ErrorKind {
  /** Shardex refused or could not finish something (a routing rule, an option, a partial write): the connection is fine. */
  SHARDEX,
  /** Shardex reports a shard or the directory it cannot reach (SHX1401, SHX1406, SHX1407). */
  UNREACHABLE,
  /** A physical connection failed (class 08, a communications failure, a pool timeout): not yet named by Shardex. */
  CONNECTION_LOST,
  /** The database answered with the statement's own error (duplicate key, syntax, lock wait): passed through. */
  DATABASE;

  public static ErrorKind of(SQLException e) {
    ShardexError ours = ShardexError.of(e);
    if (ours != null) {
      return ours == ShardexError.SHARD_UNREACHABLE || ours == ShardexError.DIRECTORY_UNREACHABLE
          || ours == ShardexError.LEASE_LAPSED ? UNREACHABLE : SHARDEX;
    }
    String state = e.getSQLState();
    boolean lost = (state != null && state.startsWith("08"))
        || e instanceof SQLTransientConnectionException // a pool's timeout, Connector/J's connect failures
        || e.getClass().getName().endsWith("CommunicationsException");
    return lost ? CONNECTION_LOST : DATABASE;
  }

  /** A shard or the directory cannot be reached, whether Shardex named it yet or not. */
  public boolean unreachable() {
    return this == UNREACHABLE || this == CONNECTION_LOST;
  }

  /** The server error Shardex reacts to that {@code e} is (by its vendor code), or null. */
  public static MysqlError server(SQLException e) {
    return e.getErrorCode() == 0 ? null : MysqlError.of(e.getErrorCode());
  }

  /**
   * A deadlock victim or a lock wait that timed out: the server rolled the transaction (or the
   * statement) back, so running the transaction again is safe (the directory's {@code Retry}).
   */
  public static boolean transientLock(SQLException e) {
    MysqlError m = server(e);
    return "40001".equals(e.getSQLState()) || m == MysqlError.DEADLOCK || m == MysqlError.LOCK_WAIT_TIMEOUT;
  }

  /** The user or password was refused (SQLState 28000). */
  public static boolean accessDenied(SQLException e) {
    return "28000".equals(e.getSQLState());
  }

  /** The server refused this user: credentials, grants, the database, too many connections, the host. */
  public static boolean accessRefused(SQLException e) {
    MysqlError m = server(e);
    return accessDenied(e) || m == MysqlError.TOO_MANY_CONNECTIONS
        || m == MysqlError.DATABASE_ACCESS_DENIED || m == MysqlError.ACCESS_DENIED || m == MysqlError.UNKNOWN_DATABASE
        || m == MysqlError.HOST_BLOCKED || m == MysqlError.HOST_NOT_ALLOWED;
  }

  /**
   * The statement's own fault as one server judged it (data 22, constraint 23, syntax or access 42,
   * cardinality 21): it says nothing about the server's health.
   */
  public static boolean statementFault(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.startsWith("21") || state.startsWith("22") || state.startsWith("23")
        || state.startsWith("42"));
  }

  /** A statement the server cancelled on request (Connector/J gives it no SQLState). */
  public static boolean cancelled(SQLException e) {
    return e.getSQLState() == null && e.getClass().getName().endsWith("StatementCancelledException");
  }

  /** A statement that ran past its query timeout (Connector/J: an SQLTimeoutException with no SQLState). */
  public static boolean queryTimedOut(SQLException e) {
    return e.getSQLState() == null && e instanceof java.sql.SQLTimeoutException;
  }
}
