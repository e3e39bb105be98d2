package dev.shardex.driver.jdbc;

import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.vocabulary.ShardexError;
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

  /** A statement step that may throw only SQLException once {@link #guarded} has run it. */
  @FunctionalInterface
  interface Step<T> {
    T run() throws SQLException;
  }

  /**
   * The JDBC boundary's last resort: anything but an SQLException escaping the pipeline (a bug;
   * each known cause is fixed where it arises) becomes SHX1509 with SQLState HY000, the statement
   * named, so an application never sees a bare RuntimeException or StackOverflowError.
   */
  static <T> T guarded(String sql, Step<T> step) throws SQLException {
    try {
      return step.run();
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      throw internal(sql, e);
    }
  }

  /** As {@link #guarded}, for a step that sends nothing to a shard (parsing a prepared statement). */
  static <T> T unsentGuarded(String sql, Step<T> step) throws SQLException {
    try {
      return step.run();
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      throw unsent(sql, e);
    }
  }

  /** SHX1509 for a throwable that escaped the pipeline (hot paths catch inline, without a lambda). */
  static SQLException internal(String sql, Throwable e) {
    return ShardexError.INTERNAL.withCause(e, SqlLexer.abbreviate(sql), e.toString(),
        "the statement may have run on some shards or none");
  }

  /**
   * SHX1509 for a throwable raised before the statement reached any shard (parsing, routing): the
   * caller may retry or fix it knowing nothing ran, so the message says so.
   */
  static SQLException unsent(String sql, Throwable e) {
    return ShardexError.INTERNAL.withCause(e, SqlLexer.abbreviate(sql), e.toString(),
        "it failed before reaching a shard: the statement ran on no shard");
  }
}
