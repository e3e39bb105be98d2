package dev.shardex.driver.jdbc;

import dev.shardex.vocabulary.ShardexError;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * A prepared statement's parameters as the application set them: the value of each (for routing)
 * and how to bind it on the shard's statement (replayed exactly, so types and streams survive).
 */
public final class Parameters {
  /**
   * Replays one setter call on a physical statement, at the given (1-based) position, with the
   * value recorded for it (a two-argument setter's binder captures nothing else).
   */
  @FunctionalInterface
  public interface Binder {
    void bind(PreparedStatement ps, int index, Object value) throws SQLException;
  }

  private Object[] values;
  private Binder[] binders;
  private int count;

  Parameters(int expected) {
    values = new Object[Math.max(expected, 4)];
    binders = new Binder[values.length];
    count = expected;
  }

  private Parameters(Object[] values, Binder[] binders, int count) {
    this.values = values;
    this.binders = binders;
    this.count = count;
  }

  public void set(int index, Object value, Binder binder) throws SQLException {
    if (index < 1 || index > count) {
      throw ShardexError.PARAMETER_RANGE.exception(index, index < 1 ? "< 1" : "> number of parameters, which is " + count);
    }
    if ((value instanceof Double d && !Double.isFinite(d)) || (value instanceof Float f && !Float.isFinite(f))) {
      throw ShardexError.NOT_A_NUMBER.exception(index, value);
    }
    if (index > values.length) {
      int size = Math.max(index, values.length * 2);
      values = Arrays.copyOf(values, size);
      binders = Arrays.copyOf(binders, size);
    }
    values[index - 1] = value;
    binders[index - 1] = binder;
    count = Math.max(count, index);
  }

  public Object[] values() {
    return values;
  }

  /** Which parameters (0-based) have been set. */
  boolean[] bound() {
    boolean[] set = new boolean[binders.length];
    for (int i = 0; i < binders.length; i++) {
      set[i] = binders[i] != null;
    }
    return set;
  }

  void clear() {
    Arrays.fill(values, null);
    Arrays.fill(binders, null);
  }

  /** Binds every parameter; a missing one fails here, before the shard sees the statement. */
  void bind(PreparedStatement ps, int expected) throws SQLException {
    for (int i = 0; i < expected; i++) {
      binder(i, expected).bind(ps, i + 1, values[i]);
    }
  }

  /** Binds the chosen parameters (0-based, in order) at positions 1..n: a split statement's share. */
  void bind(PreparedStatement ps, int[] chosen, int expected) throws SQLException {
    for (int j = 0; j < chosen.length; j++) {
      binder(chosen[j], expected).bind(ps, j + 1, values[chosen[j]]);
    }
  }

  private Binder binder(int i, int expected) throws SQLException {
    if (i >= binders.length || binders[i] == null) {
      throw dev.shardex.vocabulary.ShardexError.PARAMETER_NOT_SET.exception(i + 1, expected);
    }
    return binders[i];
  }

  Parameters snapshot() {
    return new Parameters(values.clone(), binders.clone(), count);
  }

}
