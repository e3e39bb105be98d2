package dev.shardex.driver.sql;

/**
 * A plain statement's normalised text as a cache key, without copying it: the text as written and
 * where its literals are ({@code [start, end)} pairs); the normalised text is that text with a
 * {@code ?} for each literal. Its hash is {@code String.hashCode} of the normalised text, and it
 * equals a key made from a normalised text ({@link #of}) exactly when its own normalised text is
 * that text, compared piece by piece in place. So texts that differ only in literals find one
 * entry, and texts that differ in anything else never share one.
 */
final class PlainKey {
  private static final int[] NONE = new int[0];

  private final String sql;
  private final int[] spans;
  private final int count;
  private final int length;
  private final int hash;

  /** A text with {@code count} literals at {@code spans}; its normalised text's length and hash. */
  PlainKey(String sql, int[] spans, int count, int length, int hash) {
    this.sql = sql;
    this.spans = spans;
    this.count = count;
    this.length = length;
    this.hash = hash;
  }

  /**
   * {@code String.hashCode}'s polynomial continued over sql[from, to), four characters a step
   * (the same value, with a shorter chain of multiplications).
   */
  static int hash(int h, String s, int from, int to) {
    int j = from;
    for (; j + 4 <= to; j += 4) {
      h = 923521 * h + 29791 * s.charAt(j) + 961 * s.charAt(j + 1) + 31 * s.charAt(j + 2) + s.charAt(j + 3);
    }
    for (; j < to; j++) {
      h = 31 * h + s.charAt(j);
    }
    return h;
  }

  /** The key of a normalised text (what the cache keeps). */
  static PlainKey of(String normalised) {
    return new PlainKey(normalised, NONE, 0, normalised.length(), normalised.hashCode());
  }

  /** How many literals were taken out. */
  int count() {
    return count;
  }

  /** The normalised text: a {@code ?} where each literal stood. */
  String text() {
    if (count == 0) {
      return sql;
    }
    StringBuilder out = new StringBuilder(length);
    int from = 0;
    for (int k = 0; k < count; k++) {
      out.append(sql, from, spans[2 * k]).append('?');
      from = spans[2 * k + 1];
    }
    return out.append(sql, from, sql.length()).toString();
  }

  /** The literals' values in order (Long, BigDecimal or String). */
  Object[] values() {
    Object[] values = new Object[count];
    for (int k = 0; k < count; k++) {
      values[k] = LiteralValues.of(sql, spans[2 * k], spans[2 * k + 1]);
    }
    return values;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PlainKey other) || other.hash != hash || other.length != length) {
      return false;
    }
    if (other.count == 0) {
      return normalisesTo(other.sql);
    }
    return count == 0 ? other.normalisesTo(sql) : text().equals(other.text());
  }

  /** Whether this text with its literals replaced is {@code normalised} (of the same length). */
  private boolean normalisesTo(String normalised) {
    int from = 0;
    int at = 0;
    for (int k = 0; k < count; k++) {
      int start = spans[2 * k];
      if (!sql.regionMatches(from, normalised, at, start - from)) {
        return false;
      }
      at += start - from;
      if (normalised.charAt(at++) != '?') {
        return false;
      }
      from = spans[2 * k + 1];
    }
    return sql.regionMatches(from, normalised, at, sql.length() - from);
  }

  @Override
  public String toString() {
    return text();
  }
}
