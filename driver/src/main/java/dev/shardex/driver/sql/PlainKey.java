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

  PlainKey(String sql, int[] spans, int count) {
    this.sql = sql;
    this.spans = spans;
    this.count = count;
    if (count == 0) {
      this.length = sql.length();
      this.hash = sql.hashCode();
      return;
    }
    int h = 0;
    int length = 0;
    int from = 0;
    for (int k = 0; k < count; k++) {
      int start = spans[2 * k];
      for (int j = from; j < start; j++) {
        h = 31 * h + sql.charAt(j);
      }
      h = 31 * h + '?';
      length += start - from + 1;
      from = spans[2 * k + 1];
    }
    for (int j = from; j < sql.length(); j++) {
      h = 31 * h + sql.charAt(j);
    }
    this.length = length + sql.length() - from;
    this.hash = h;
  }

  /** The key of a normalised text (what the cache keeps). */
  static PlainKey of(String normalised) {
    return new PlainKey(normalised, NONE, 0);
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
