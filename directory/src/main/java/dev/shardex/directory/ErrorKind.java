package dev.shardex.directory;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The one classifier for every SQLException Shardex raises or receives from a shard, a shard's pool or the
 * directory. The driver translates by it (a lost physical connection becomes SHX1401 naming the shard, the
 * rest passes through as the database said it) and the CLI picks its exit code by it. Nothing else sorts
 * errors, and nothing sorts them by message text.
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
}
