package dev.shardex.directory.lookup;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A looked-up column value as the directory stores it: numbers in one canonical text ({@code 42},
 * {@code 42L}, {@code "42"} and {@code 42.0} are one value, as a numeric column compares them),
 * everything else as its text. The directory's {@code v} column compares like the shards' default
 * collation (utf8mb4_general_ci), so 'Ann@x' and 'ann@x' are one value there, as on a shard.
 */
public final class LookupValue {
  /** The directory's {@code v} is VARCHAR(255). */
  public static final int MAX_CHARS = 255;

  private LookupValue() {}

  /** The stored text of a value; null for SQL NULL (which no lookup holds: NULL equals nothing). */
  public static String of(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
        || value instanceof java.math.BigInteger) {
      return value.toString();
    }
    if (value instanceof BigDecimal || value instanceof Double || value instanceof Float) {
      BigDecimal d = new BigDecimal(value.toString()).stripTrailingZeros();
      return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }
    if (value instanceof byte[] b) {
      return new String(b, StandardCharsets.UTF_8);
    }
    return value.toString();
  }

  /** The form a cache keys a value by: the directory's collation folds case and trailing spaces. */
  public static String folded(String v) {
    return v.stripTrailing().toLowerCase(Locale.ROOT);
  }
}
