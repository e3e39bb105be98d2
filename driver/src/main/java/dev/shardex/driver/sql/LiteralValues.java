package dev.shardex.driver.sql;

import java.math.BigDecimal;

/**
 * The value of one literal that {@link LiteralScanner} took out of a plain statement: a number
 * (Long when it has no dot and no exponent and fewer than 19 digits, else BigDecimal; a leading
 * minus negates it) or a string with its quotes doubled and backslash escapes resolved.
 */
final class LiteralValues {
  private LiteralValues() {}

  private static final int MAX_SCALE = 400;

  /** The value of the literal sql[start, end): a string when it starts with a quote, else a number. */
  static Object of(String sql, int start, int end) {
    char c = sql.charAt(start);
    if (c == '\'' || c == '"') {
      return string(sql, start, end);
    }
    if (c == '-') {
      Object value = number(sql, start + 1, end);
      return value instanceof Long l ? (Object) (-l) : ((BigDecimal) value).negate();
    }
    return number(sql, start, end);
  }

  /** Whether sql[from, to) is a number MySQL could hold (not an exponent past DOUBLE's range). */
  static boolean isNumber(String sql, int from, int to) {
    return simpleDigits(sql, from, to) || number(sql.substring(from, to)) != null;
  }

  private static Object number(String sql, int from, int to) {
    if (!simpleDigits(sql, from, to)) {
      return number(sql.substring(from, to));
    }
    long v = 0;
    for (int k = from; k < to; k++) {
      v = v * 10 + (sql.charAt(k) - '0');
    }
    return v;
  }

  /** Fewer than 19 ASCII digits: always a long. */
  private static boolean simpleDigits(String sql, int from, int to) {
    if (to - from >= 19) {
      return false;
    }
    for (int k = from; k < to; k++) {
      char c = sql.charAt(k);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** The literal's value; null when it is no number MySQL could hold (an exponent past DOUBLE's range). */
  private static Object number(String text) {
    if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0 && text.length() < 19) {
      return Long.parseLong(text);
    }
    try {
      BigDecimal d = new BigDecimal(text);
      return Math.abs((long) d.scale()) > MAX_SCALE ? null : d;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The string between the quotes at start and end - 1 (an unterminated one loses its last character, as ever). */
  private static String string(String sql, int start, int end) {
    char quote = sql.charAt(start);
    int last = Math.min(end - 1, sql.length());
    boolean plain = true;
    for (int j = start + 1; j < last && plain; j++) {
      char c = sql.charAt(j);
      plain = c != '\\' && c != quote;
    }
    return plain ? sql.substring(start + 1, Math.max(start + 1, last)) : unquote(sql, start, last);
  }

  private static String unquote(String sql, int start, int last) {
    char quote = sql.charAt(start);
    StringBuilder s = new StringBuilder(last - start);
    for (int j = start + 1; j < last; j++) {
      char c = sql.charAt(j);
      if (c == '\\' && j + 1 < last) {
        char e = sql.charAt(++j);
        s.append(switch (e) {
          case 'n' -> '\n';
          case 't' -> '\t';
          case 'r' -> '\r';
          case '0' -> '\0';
          case 'Z' -> (char) 26;
          default -> e;
        });
      } else if (c == quote && j + 1 < last && sql.charAt(j + 1) == quote) {
        s.append(c);
        j++;
      } else {
        s.append(c);
      }
    }
    return s.toString();
  }
}
