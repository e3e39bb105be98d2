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
    return isUnreachable(e) ? unreachable(shard, e, password) : e;
  }

  private static String firstLine(String s) {
    return s == null ? "no message" : s.lines().findFirst().orElse(s);
  }
}
