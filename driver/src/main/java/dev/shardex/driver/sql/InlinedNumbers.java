package dev.shardex.driver.sql;

/**
 * A step's text with its whole-number parameters written in, as the bytes Connector/J's client-side
 * prepared statement would send for them ({@code setLong} writes the decimal digits where the
 * {@code ?} stood): the same statement reaches the server, without binding a parameter per value
 * and encoding it again into the packet, which for a lookup join's IN lists of 100 join values was
 * about a tenth of the driver's own CPU per join. Only {@code Long} and {@code Integer} values are
 * written in; any other value (a string, a decimal, a date, NULL) leaves the statement to be bound.
 */
public final class InlinedNumbers {
  private InlinedNumbers() {}

  /**
   * The text with its {@code ?} markers (outside quotes and comments) replaced, in order, by
   * {@code values[chosen[i]]}; null when a chosen value is not a whole number, or when the text does
   * not have exactly {@code chosen.length} markers.
   */
  public static String of(String sql, int[] chosen, Object[] values) {
    for (int c : chosen) {
      if (!(values[c] instanceof Long || values[c] instanceof Integer)) {
        return null;
      }
    }
    StringBuilder out = new StringBuilder(sql.length() + 8 * chosen.length);
    int marker = 0;
    int i = 0;
    int copied = 0;
    while (i < sql.length()) {
      int end = SqlLexer.opaqueEnd(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      if (sql.charAt(i) == '?') {
        if (marker == chosen.length) {
          return null;
        }
        out.append(sql, copied, i).append(((Number) values[chosen[marker++]]).longValue());
        copied = i + 1;
      }
      i++;
    }
    return marker == chosen.length ? out.append(sql, copied, sql.length()).toString() : null;
  }
}
