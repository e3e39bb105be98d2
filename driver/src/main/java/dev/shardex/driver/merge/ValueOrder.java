package dev.shardex.driver.merge;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Compares column values the way MySQL orders them, so rows merged from several shards come out
 * in the order one server would give: NULL before everything (ascending), numbers by value,
 * strings by the column's collation, approximated as case-insensitive with trailing spaces ignored
 * for case-insensitive collations (utf8mb4_general_ci, the sandbox default) and binary otherwise.
 */
public final class ValueOrder {
  private ValueOrder() {}

  public static int compare(Object a, Object b, boolean caseInsensitive) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (a instanceof Number x && b instanceof Number y) {
      if (!finite(x) || !finite(y)) {
        return Double.compare(x.doubleValue(), y.doubleValue());
      }
      return decimal(x).compareTo(decimal(y));
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return java.util.Arrays.compareUnsigned(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return caseInsensitive ? collationKey(x).compareTo(collationKey(y)) : x.compareTo(y);
    }
    if (a instanceof Comparable<?> && a.getClass() == b.getClass()) {
      @SuppressWarnings("unchecked")
      Comparable<Object> c = (Comparable<Object>) a;
      return c.compareTo(b);
    }
    return a.toString().compareTo(b.toString());
  }

  /** The form under which two values count as equal for GROUP BY and DISTINCT. */
  public static Object groupingKey(Object v, boolean caseInsensitive) {
    if (v instanceof Number n) {
      return decimal(n).stripTrailingZeros();
    }
    if (v instanceof String s) {
      return caseInsensitive ? collationKey(s) : s;
    }
    if (v instanceof byte[] b) {
      return java.nio.ByteBuffer.wrap(b);
    }
    return v;
  }

  private static final BigDecimal PAST_DOUBLE = new BigDecimal("1e309");

  private static boolean finite(Number n) {
    return !(n instanceof Double || n instanceof Float) || Double.isFinite(n.doubleValue());
  }

  /**
   * The number as a decimal. A merged SUM of doubles can overflow where no shard's did (1e308 on two
   * shards): an infinity becomes a decimal past every finite double, with its sign (MySQL's own
   * overflowed SUM is non-zero and past them too), NaN zero, so HAVING can still weigh it (found by
   * the long fuzz run at seed 77: HAVING SUM(d) failed inside the merge).
   */
  static BigDecimal decimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : Double.isNaN(d) ? BigDecimal.ZERO
          : d > 0 ? PAST_DOUBLE : PAST_DOUBLE.negate();
    }
    if (n instanceof java.math.BigInteger i) {
      return new BigDecimal(i);
    }
    return BigDecimal.valueOf(n.longValue());
  }

  /**
   * utf8mb4_general_ci, approximately: trailing spaces ignored (PAD SPACE), accents folded to the
   * base letter ('É' = 'e'), case folded. Exact for ASCII and Latin-1 letters with a decomposition.
   */
  private static String collationKey(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    String base = s.substring(0, end);
    boolean ascii = true;
    for (int i = 0; i < base.length() && ascii; i++) {
      ascii = base.charAt(i) < 128;
    }
    if (!ascii) {
      base = MARKS.matcher(java.text.Normalizer.normalize(base, java.text.Normalizer.Form.NFD)).replaceAll("");
    }
    return base.toUpperCase(Locale.ROOT);
  }

  private static final java.util.regex.Pattern MARKS = java.util.regex.Pattern.compile("\\p{M}+");
}
