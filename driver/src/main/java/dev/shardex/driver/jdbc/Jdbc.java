package dev.shardex.driver.jdbc;

import dev.shardex.directory.ShardexError;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/** The JDBC layer's few shared helpers: one way to refuse a call, one way to check for close. */
public final class Jdbc {
  private Jdbc() {}

  public static SQLFeatureNotSupportedException unsupported(String method) {
    return (SQLFeatureNotSupportedException) ShardexError.UNSUPPORTED.exception(method,
        "Shardex does not implement this JDBC call yet");
  }

  /** A closed connection is 08003 (a pool drops it); a closed statement or result set is HY010: its connection is fine. */
  static void checkOpen(boolean closed, String what) throws SQLException {
    if (closed) {
      throw ("connection".equals(what) ? ShardexError.CLOSED : ShardexError.USED_AFTER_CLOSE).exception(what);
    }
  }

  static SQLException notAQuery() {
    return ShardexError.NO_RESULT_SET.exception();
  }

  static SQLException notAnUpdate() {
    return ShardexError.RESULT_SET_RETURNED.exception();
  }
}
