package dev.shardex.vocabulary;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How MySQL (MariaDB 10.11, checked against the server by KeyTextTest) reads a BIGINT key given as
 * text or as a decimal, in the two places it matters.
 *
 * <p>Compared ({@code key = ' 42 '}): the text's leading number counts: leading spaces (space, tab,
 * LF, VT, FF, CR) are skipped, the number ends where its digits (or a complete exponent) end, and
 * text with no leading number is 0. {@code ' 42 '}, {@code '42abc'}, {@code '42.0'} equal 42,
 * {@code '1e3'} 1000, {@code ''} and {@code 'abc'} 0. A fraction matches either nothing (the row
 * read compares exactly) or the key it rounds to (an index lookup stores the value into the key
 * column first: {@code COUNT(*) ... WHERE key = '42.5'} counts key 43's rows), so it is routed to
 * the rounded key's shard, which gives the server's answer either way. A number past the BIGINT
 * range matches nothing.
 *
 * <p>Stored ({@code INSERT ... VALUES (' 42 ')} in strict mode): the whole text must be one number
 * between such spaces; its value is rounded half away from zero ({@code '42.5'} stores 43) and must
 * fit a BIGINT. Anything else the server refuses, so Shardex refuses it before placing a key.
 */
final class KeyNumber {
  private KeyNumber() {}

  private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  /** Orders of magnitude: past 19 integer digits no BIGINT is near; below 10^-30 the value is 0 to a route. */
  private static final int MAX_ORDER = 19;
  private static final int MIN_ORDER = -30;

  /** The key a BIGINT column compared with this text matches, or {@link KeyType#NO_KEY}. */
  static Object compared(String text) {
    Scan s = Scan.of(text);
    return s.digits == 0 ? (Object) 0L : orNoKey(rounded(s.mantissa(text), s.exponent(text), true));
  }

  /** The key a BIGINT column compared with this decimal matches, or {@link KeyType#NO_KEY}. */
  static Object compared(BigDecimal value) {
    return orNoKey(rounded(value, 0, true));
  }

  /** The BIGINT MySQL stores for this text in strict mode, or null when the server refuses it. */
  static Long stored(String text) {
    Scan s = Scan.of(text);
    if (s.digits == 0 || !Scan.spaces(text, s.end, text.length())) {
      return null;
    }
    return rounded(s.mantissa(text), s.exponent(text), false);
  }

  /** The BIGINT MySQL stores for this decimal (rounded half away from zero), or null when out of range. */
  static Long stored(BigDecimal value) {
    return rounded(value, 0, false);
  }

  private static Object orNoKey(Long key) {
    return key == null ? KeyType.NO_KEY : key;
  }

  /**
   * mantissa * 10^exponent rounded half away from zero, or null past the BIGINT range. Below 10^-30
   * a compared value is 0, a stored one refused (the server refuses '1e-400' rather than store 0).
   */
  private static Long rounded(BigDecimal mantissa, long exponent, boolean compared) {
    if (mantissa.signum() == 0) {
      return 0L;
    }
    long order = (long) mantissa.precision() - mantissa.scale() + exponent;
    if (order > MAX_ORDER || order < MIN_ORDER) {
      return order < MIN_ORDER && compared ? 0L : null;
    }
    BigDecimal n = mantissa.scaleByPowerOfTen((int) exponent).setScale(0, RoundingMode.HALF_UP);
    return n.compareTo(MIN) >= 0 && n.compareTo(MAX) <= 0 ? n.longValueExact() : null;
  }

  /** One pass over the text: where its leading number's parts are. */
  private static final class Scan {
    int start;
    int digits;
    int mantissaEnd;
    int exponentStart = -1;
    int end;

    static Scan of(String t) {
      Scan s = new Scan();
      int i = 0;
      while (i < t.length() && space(t.charAt(i))) {
        i++;
      }
      s.start = i;
      if (i < t.length() && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
        i++;
      }
      i = s.digits(t, i);
      if (i < t.length() && t.charAt(i) == '.') {
        i = s.digits(t, i + 1);
      }
      s.mantissaEnd = i;
      s.end = s.digits == 0 ? s.start : s.exponent(t, i);
      return s;
    }

    private int digits(String t, int i) {
      while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
        i++;
        digits++;
      }
      return i;
    }

    /** The end of a complete exponent at i ('e', a sign, at least one digit), or i. */
    private int exponent(String t, int i) {
      if (i >= t.length() || (t.charAt(i) != 'e' && t.charAt(i) != 'E')) {
        return i;
      }
      int j = i + 1;
      if (j < t.length() && (t.charAt(j) == '+' || t.charAt(j) == '-')) {
        j++;
      }
      int k = j;
      while (k < t.length() && t.charAt(k) >= '0' && t.charAt(k) <= '9') {
        k++;
      }
      if (k == j) {
        return i;
      }
      exponentStart = i + 1;
      return k;
    }

    BigDecimal mantissa(String t) {
      return new BigDecimal(t.substring(start, mantissaEnd));
    }

    /** The exponent, clamped to +-10^10 (past that only its sign matters: no BIGINT is near). */
    long exponent(String t) {
      if (exponentStart < 0) {
        return 0;
      }
      boolean negative = t.charAt(exponentStart) == '-';
      long e = 0;
      for (int k = exponentStart; k < end; k++) {
        char c = t.charAt(k);
        if (c >= '0' && c <= '9') {
          e = Math.min(10_000_000_000L, e * 10 + (c - '0'));
        }
      }
      return negative ? -e : e;
    }

    static boolean spaces(String t, int from, int to) {
      for (int k = from; k < to; k++) {
        if (!space(t.charAt(k))) {
          return false;
        }
      }
      return true;
    }

    /** The characters the server skips around a number: space, tab, LF, VT, FF, CR (not NUL). */
    static boolean space(char c) {
      return c == ' ' || (c >= '\t' && c <= '\r');
    }
  }
}
