package dev.shardex.driver.execute;

import dev.shardex.directory.Redact;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;

/**
 * Names the shard in a physical SQLException, by {@link ErrorKind}: a lost connection becomes SHX1401 naming
 * the shard (SQLState 57S01, so a pool in front of Shardex keeps the logical connection), with the original
 * as its cause. Anything else (a duplicate key, a syntax error) is the application's and passes through
 * untouched, keeping its type, SQLState and vendor code; Shardex's own errors pass through too.
 */
public final class ShardErrors {
  private ShardErrors() {}

  public static SQLException unreachable(Shard shard, SQLException cause, String password) {
    return ShardexError.SHARD_UNREACHABLE.withCause(cause, shard.id(), Redact.url(shard.url()),
        Redact.text(firstLine(cause.getMessage()), password));
  }

  /** Translates an error from a statement already running on the shard. */
  public static SQLException translate(Shard shard, SQLException e, String password) {
    if (e instanceof ShardexError.Raised) {
      return e;
    }
    if (ErrorKind.cancelled(e)) {
      return ShardexError.CANCELLED.withCause(e, "shard " + shard.id() + " stopped it");
    }
    if (ErrorKind.queryTimedOut(e)) {
      return ShardexError.QUERY_TIMEOUT.withCause(e, shard.id(), Redact.url(shard.url()), firstLine(e.getMessage()));
    }
    if (ErrorKind.of(e) == ErrorKind.CONNECTION_LOST && timedOut(e)) {
      return ShardexError.SHARD_TIMEOUT.withCause(e, shard.id(), Redact.url(shard.url()),
          Redact.text(firstLine(e.getMessage()), password));
    }
    return ErrorKind.of(e) == ErrorKind.CONNECTION_LOST ? unreachable(shard, e, password) : e;
  }

  /** A read that hit the socket's timeout (setNetworkTimeout, socketTimeout), not a dead server. */
  private static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  private static String firstLine(String s) {
    return s == null ? "no message" : s.lines().findFirst().orElse(s);
  }
}
