package dev.shardex.driver.events;

import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Set;

/**
 * Sorts a statement's error for telemetry: its type (the SHX id, else the server's vendor code,
 * else the SQLState) and whether Shardex refused the statement or something failed it. Refusals
 * are the statement's own doing (no key, unsupported across shards, a bad value, a lapsed lease,
 * a shard set READ_ONLY); failures are a shard's, the directory's or the network's.
 */
public final class ErrorTypes {
  private ErrorTypes() {}

  /** Shardex errors that report a failure rather than a refusal. */
  private static final Set<ShardexError> FAILURES = EnumSet.of(ShardexError.BEST_EFFORT_PARTIAL,
      ShardexError.ATOMIC_ROLLED_BACK, ShardexError.ATOMIC_UNKNOWN, ShardexError.SHARD_UNREACHABLE,
      ShardexError.DIRECTORY_UNREACHABLE, ShardexError.FROZEN_TIMEOUT, ShardexError.SHARD_REFUSED,
      ShardexError.SHARD_TIMEOUT, ShardexError.POOL_EXHAUSTED, ShardexError.DDL_PARTIAL, ShardexError.DIRECTORY_STATE,
      ShardexError.WRITE_PARTIAL, ShardexError.INTERNAL, ShardexError.CANCELLED, ShardexError.QUERY_TIMEOUT,
      ShardexError.SHARD_READ_FAILED);

  public static String of(Throwable e) {
    ShardexError shx = ShardexError.of(e);
    if (shx != null) {
      return shx.id();
    }
    if (e instanceof SQLException sql) {
      return sql.getErrorCode() != 0 ? Integer.toString(sql.getErrorCode())
          : sql.getSQLState() != null ? sql.getSQLState() : e.getClass().getSimpleName();
    }
    return e.getClass().getSimpleName();
  }

  /** Refused: a Shardex error that is not a failure, raised before any shard call of the statement failed. */
  static boolean refusal(Throwable e, boolean shardFailed) {
    ShardexError shx = ShardexError.of(e);
    return !shardFailed && shx != null && !FAILURES.contains(shx);
  }

  /**
   * Whether a shard's error says something about the shard's health: not a client's own error
   * (duplicate key 23xxx, syntax or access 42xxx, data 22xxx), which Vitess does not count either.
   */
  public static boolean shardHealth(SQLException e) {
    return !ErrorKind.statementFault(e);
  }
}
