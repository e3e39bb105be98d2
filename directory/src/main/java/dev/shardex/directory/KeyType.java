package dev.shardex.directory;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.util.HexFormat;

/**
 * The type of a key space's keys. Keys are canonicalised before they meet the cache or the
 * directory, so {@code 42}, {@code 42L} and {@code "42"} are the same BIGINT key.
 */
public enum KeyType {
  BIGINT,
  STRING;

  /** The canonical form of a key value: a {@link Long} for BIGINT, a {@link String} for STRING. */
  public Object canonical(Object value, String table) throws SQLException {
    if (value == null) {
      throw ShardexError.NULL_KEY.exception(table);
    }
    if (this == BIGINT) {
      return asLong(value, table);
    }
    String key = asString(value);
    // a char is at most 3 UTF-8 bytes: only a long key is encoded to be measured
    if (key.length() > MAX_STRING_BYTES / 3
        && key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_STRING_BYTES) {
      throw ShardexError.BAD_KEY.exception(key.substring(0, 20) + "...", table,
          "STRING (at most " + MAX_STRING_BYTES + " bytes)");
    }
    return key;
  }

  /** The key map stores keys as VARBINARY(512). */
  public static final int MAX_STRING_BYTES = 512;

  private static Long asLong(Object value, String table) throws SQLException {
    try {
      if (value instanceof Long l) {
        return l;
      }
      if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
        return ((Number) value).longValue();
      }
      if (value instanceof BigInteger b) {
        return b.longValueExact();
      }
      if (value instanceof BigDecimal d) {
        return d.longValueExact();
      }
      if (value instanceof CharSequence s) {
        return Long.parseLong(s.toString().trim());
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw ShardexError.BAD_KEY.exception(value, table, "BIGINT");
    }
    throw ShardexError.BAD_KEY.exception(value, table, "BIGINT");
  }

  private static String asString(Object value) {
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    return value.toString();
  }
}
