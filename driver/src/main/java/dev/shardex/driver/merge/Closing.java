package dev.shardex.driver.merge;

import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.List;

/** Closes things, keeping the first SQLException and chaining the rest, so no close is skipped. */
public final class Closing {
  private Closing() {}

  public static void close(AutoCloseable c) throws SQLException {
    closeAll(List.of(c));
  }

  public static void closeAll(List<? extends AutoCloseable> all) throws SQLException {
    SQLException first = null;
    for (AutoCloseable c : all) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        SQLException sql = e instanceof SQLException s ? s
            : ShardexError.INTERNAL.withCause(e, "close()", e, "the statement itself had completed");
        if (first == null) {
          first = sql;
        } else {
          first.setNextException(sql);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
