package dev.shardex.driver.execute;

import dev.shardex.directory.Redact;
import dev.shardex.directory.Shard;
import dev.shardex.directory.ShardexError;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The one place that sorts a physical SQLException: is the shard unreachable (SQLState class 08,
 * Connector/J's communications failures, a pool timeout)? Then it becomes SHX1401 naming the shard,
 * with the original chained. Anything else (a duplicate key, a syntax error) is the application's
 * and passes through untouched, keeping its type, SQLState and vendor code.
 */
public final class ShardErrors {
  private ShardErrors() {}

  public static boolean isUnreachable(SQLException e) {
    String state = e.getSQLState();
    return (state != null && state.startsWith("08"))
        || e instanceof SQLTransientConnectionException
        || e.getClass().getName().endsWith("CommunicationsException");
  }

  public static SQLException unreachable(Shard shard, SQLException cause, String password) {
    return ShardexError.SHARD_UNREACHABLE.withCause(cause, shard.id(), Redact.url(shard.url()),
        Redact.text(firstLine(cause.getMessage()), password));
  }

  /** Translates an error from a statement already running on the shard. */
  public static SQLException translate(Shard shard, SQLException e, String password) {
    if (e.getMessage() != null && e.getMessage().startsWith("Shardex ")) {
      return e;
    }
    if (e.getSQLState() == null && e.getClass().getName().endsWith("StatementCancelledException")) {
      return ShardexError.CANCELLED.withCause(e, "shard " + shard.id() + " stopped it");
    }
    if (e.getSQLState() == null && e instanceof java.sql.SQLTimeoutException) {
      return ShardexError.QUERY_TIMEOUT.withCause(e, shard.id(), Redact.url(shard.url()), firstLine(e.getMessage()));
    }
    if (isUnreachable(e) && timedOut(e)) {
      return ShardexError.SHARD_TIMEOUT.withCause(e, shard.id(), Redact.url(shard.url()),
          Redact.text(firstLine(e.getMessage()), password));
    }
    return isUnreachable(e) ? unreachable(shard, e, password) : e;
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
