package dev.shardex.vocabulary;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.HexFormat;

/**
 * The type of a key space's keys. Keys are canonicalised before they meet the cache or the
 * directory, so {@code 42}, {@code 42L} and {@code "42"} are the same BIGINT key.
 *
 * <p>A value reaches a key column in two ways, and MySQL reads it differently in each (see
 * {@link KeyNumber}): {@link #compared} is the key a {@code key = ?} predicate matches (text and
 * decimals as the server compares them, or {@link #NO_KEY} when no key can equal the value), and
 * {@link #canonical} the key an INSERT or {@code SET key = ?} stores (refused where strict mode
 * refuses it). A bound Long or Integer is the key itself in both, with no work.
 */
public enum KeyType {
  BIGINT,
  STRING;

  /** A value no key equals ({@code key = '1e400'}, past the BIGINT range): no row on any shard matches. */
  public static final Object NO_KEY = new Object() {
    @Override
    public String toString() {
      return "no key";
    }
  };

  /** The key a row stores for this value: a {@link Long} for BIGINT, a {@link String} for STRING. */
  public Object canonical(Object value, String table, String column) throws SQLException {
    if (value instanceof Long l && this == BIGINT) {
      return l;
    }
    if (value == null) {
      throw ShardexError.NULL_KEY.exception(table);
    }
    Object key = this == BIGINT ? bigint(value, false) : storedString(value);
    if (key == null) {
      throw badKey(value, table, column);
    }
    return this == BIGINT ? key : checkLength((String) key, table, column);
  }

  /** The key {@code column = value} matches, or {@link #NO_KEY}; the value is not null. */
  public Object compared(Object value, String table, String column) throws SQLException {
    if (value instanceof Long l && this == BIGINT) {
      return l;
    }
    if (this == STRING) {
      if (value instanceof Number || value instanceof Boolean) {
        throw ShardexError.BAD_KEY.exception(shown(value), column, table, "is a number, which MySQL compares with"
            + " the STRING key as a number: it matches '42', '042', ' 42' and more, on any shard",
            "bind the key as a string (setString)");
      }
      return canonical(value, table, column);
    }
    Object key = bigint(value, true);
    if (key == null) {
      throw badKey(value, table, column);
    }
    return key;
  }

  /** The key map stores keys as VARBINARY(512). */
  public static final int MAX_STRING_BYTES = 512;

  /**
   * A BIGINT key: the key, or null when the value cannot be one (refused); a compared value past
   * the BIGINT range is {@link #NO_KEY}, a stored one refused, as the server refuses it.
   */
  private static Object bigint(Object value, boolean compared) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Boolean b) {
      return b ? 1L : 0L; // Connector/J sends 1 or 0
    }
    Object key = value instanceof BigInteger b ? (b.bitLength() < 64 ? (Object) b.longValue() : null)
        : value instanceof BigDecimal d ? (compared ? KeyNumber.compared(d) : KeyNumber.stored(d))
        : value instanceof Double || value instanceof Float ? approximate(value.toString(), compared)
        : value instanceof CharSequence s ? (compared ? KeyNumber.compared(s.toString()) : KeyNumber.stored(s.toString()))
        : UNREADABLE;
    return key == UNREADABLE ? null : key == null || key == NO_KEY ? (compared ? NO_KEY : null) : key;
  }

  private static final Object UNREADABLE = new Object();

  /**
   * Connector/J sends a double as Double.toString writes it: with an exponent the server reads a
   * DOUBLE and rounds it half to even into a BIGINT, without one a DECIMAL, rounded half away from zero.
   */
  private static Object approximate(String text, boolean compared) {
    if (text.indexOf('E') < 0) {
      return KeyNumber.stored(new BigDecimal(text));
    }
    double d = Math.rint(Double.parseDouble(text));
    // past 2^53 a DOUBLE stands for several BIGINT keys, and the server matches them as doubles
    // (an IN list matches every key that rounds to it): no one key, so a comparison is refused (22018)
    if (d < -0x1p63 || d >= 0x1p63) {
      return null;
    }
    return compared && Math.abs(d) >= 0x1p53 ? UNREADABLE : (Object) (long) d;
  }

  private static String storedString(Object value) {
    if (value instanceof CharSequence s) {
      return s.toString();
    }
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
        || value instanceof BigInteger) {
      return value.toString(); // the digits MySQL stores for an integer
    }
    return value instanceof BigDecimal d && d.precision() <= 65 ? d.toPlainString() : null;
  }

  private static String checkLength(String key, String table, String column) throws SQLException {
    // a char is at most 3 UTF-8 bytes: only a long key is encoded to be measured
    if (key.length() > MAX_STRING_BYTES / 3 && key.getBytes(StandardCharsets.UTF_8).length > MAX_STRING_BYTES) {
      throw ShardexError.BAD_KEY.exception(shown(key), column, table,
          "is longer than the " + MAX_STRING_BYTES + " bytes a STRING key holds", "use a shorter key");
    }
    return key;
  }

  private SQLException badKey(Object value, String table, String column) {
    if (this == STRING) {
      return ShardexError.BAD_KEY.exception(shown(value), column, table, "is a " + value.getClass().getSimpleName()
          + ", which MySQL would store in the STRING key as text Shardex cannot predict", "bind the key as a string (setString)");
    }
    boolean known = value instanceof Number || value instanceof CharSequence || value instanceof Boolean;
    return ShardexError.BAD_KEY.exception(shown(value), column, table, known
        ? "is no number a BIGINT column stores (MySQL's strict mode refuses it)"
        : "is a " + value.getClass().getSimpleName() + ", not a number", "bind the key as an integer (setLong)");
  }

  /** The value as a message shows it: quoted, at most 40 characters. */
  static String shown(Object value) {
    String s = value instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : String.valueOf(value);
    return "'" + (s.length() > 40 ? s.substring(0, 37) + "...' (" + s.length() + " characters)" : s + "'");
  }
}
