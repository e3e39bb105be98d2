package dev.shardex.vocabulary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLDataException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Canonical key forms: what makes two key values the same key, and how MySQL reads a key given as
 * text or a decimal (compared in a WHERE, stored by an INSERT). The driver's KeyTextTest checks
 * the same values against the server.
 */
class KeyTypeTest {

  @Test
  void canonical_bigintFromEveryNumericForm_isTheSameLong() throws SQLException {
    Object expected = 42L;
    for (Object v : new Object[] {42, 42L, "42", new BigDecimal("42"), BigInteger.valueOf(42), (short) 42, (byte) 42,
        " 42 ", "\t42\n", "42.0", "4.2e1", 42.0d, 42.0f}) {
      assertEquals(expected, stored(v), "stored " + v);
      assertEquals(expected, compared(v), "compared " + v);
    }
  }

  @Test
  void canonical_bigint_isALongSoCacheKeysAgree() throws SQLException {
    assertInstanceOf(Long.class, stored(7));
    assertEquals(stored(7).hashCode(), stored("7").hashCode());
  }

  @Test
  void canonical_long_isTheSameInstance() throws SQLException {
    Long key = 123_456_789L;
    assertSame(key, stored(key));
    assertSame(key, compared(key));
  }

  @Test
  void canonical_bigintExtremes_kept() throws SQLException {
    assertEquals(Long.MAX_VALUE, stored(Long.toString(Long.MAX_VALUE)));
    assertEquals(Long.MIN_VALUE, compared(Long.toString(Long.MIN_VALUE)));
    assertEquals(-5L, stored("-5"));
    assertEquals(0L, stored(BigDecimal.ZERO));
  }

  @Test
  void compared_textAsMySqlReadsIt_itsLeadingNumber() throws SQLException {
    assertEquals(42L, compared("42abc"));
    assertEquals(1000L, compared("1e3"));
    assertEquals(0L, compared(""));
    assertEquals(0L, compared("abc"));
    assertEquals(0L, compared("0x2A"));
    assertEquals(5L, compared(".5e1"));
    assertEquals(42L, compared("42e+"));
    assertEquals(42L, compared("\u000b\f42"));
    assertEquals(0L, compared("\u00a042"));
    assertEquals(0L, compared("1e-400"));
    assertEquals(42L, compared("0".repeat(5000) + "42"));
    assertEquals(9007199254740993L, compared("9007199254740993"));
  }

  @Test
  void compared_fraction_routesToTheKeyItRoundsTo() throws SQLException {
    // the server matches nothing, or (through an index) the rounded key: its shard answers either way
    assertEquals(43L, compared("42.5"));
    assertEquals(-43L, compared(new BigDecimal("-42.5")));
    assertEquals(42L, compared("42.0000000000000000001"));
    assertEquals(3L, compared(2.5d)); // sent as the DECIMAL 2.5
    assertEquals(12345678L, compared(1.23456785E7)); // sent as a DOUBLE: half to even
  }

  @Test
  void compared_pastTheBigintRange_matchesNoKey() throws SQLException {
    for (Object v : new Object[] {"99999999999999999999", "9223372036854775808", "-9223372036854775809", "1e400",
        "1e99999999999999999999", "7".repeat(5000), new BigDecimal("1e400"), new BigInteger("99999999999999999999"),
        1e19, -1e300}) {
      assertSame(KeyType.NO_KEY, compared(v), String.valueOf(v));
    }
  }

  @Test
  void stored_textStrictModeAccepts_roundedHalfAwayFromZero() throws SQLException {
    assertEquals(43L, stored("42.5"));
    assertEquals(-43L, stored("-42.5"));
    assertEquals(1L, stored(".5"));
    assertEquals(7L, stored("7  "));
    assertEquals(3L, stored(new BigDecimal("2.5")));
    assertEquals(3L, stored(2.5d));
    assertEquals(12345678L, stored(1.23456785E7));
    assertEquals(1L, stored(true));
  }

  @Test
  void stored_textStrictModeRefuses_failsWith22018NamingTableAndColumn() {
    for (Object v : new Object[] {"", "abc", "42abc", "0x10", "4e", "+ 7", "1e-400", "99999999999999999999",
        "9223372036854775807.5", new BigDecimal("1e400"), new BigInteger("99999999999999999999"), 1e19,
        new java.sql.Timestamp(0), new byte[] {1}}) {
      assertBadKey(() -> KeyType.BIGINT.canonical(v, "posts", "author_id"), "author_id");
    }
  }

  @Test
  void canonical_null_failsWith22004NamingTheTable() {
    for (KeyType type : KeyType.values()) {
      SQLException e = assertThrows(SQLException.class, () -> type.canonical(null, "posts", "author_id"));
      assertInstanceOf(SQLDataException.class, e);
      assertEquals("22004", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1001: "), e.getMessage());
      assertTrue(e.getMessage().contains("table posts"), e.getMessage());
    }
  }

  @Test
  void canonical_stringFromBytes_isLowerCaseHex() throws SQLException {
    assertEquals("00ff1fab", KeyType.STRING.canonical(new byte[] {0x00, (byte) 0xff, 0x1f, (byte) 0xab}, "devices", "device"));
  }

  @Test
  void canonical_stringFromText_unchanged() throws SQLException {
    assertEquals("Ab-9 ", KeyType.STRING.canonical("Ab-9 ", "devices", "device"));
    assertEquals("Ab-9 ", KeyType.STRING.compared("Ab-9 ", "devices", "device"));
    assertEquals("42", KeyType.STRING.canonical(42, "devices", "device")); // an INSERT stores its digits
  }

  @Test
  void compared_stringKeyWithANumber_failsWith22018TellingToBindAString() {
    SQLException e = assertBadKey(() -> KeyType.STRING.compared(42, "devices", "device"), "device");
    assertTrue(e.getMessage().contains("setString"), e.getMessage());
  }

  @Test
  void badKey_longValue_isAbbreviated() {
    SQLException e = assertBadKey(() -> KeyType.BIGINT.canonical("x".repeat(10_000), "posts", "author_id"), "author_id");
    assertTrue(e.getMessage().length() < 400, e.getMessage());
    assertTrue(e.getMessage().contains("(10000 characters)"), e.getMessage());
  }

  private static Object stored(Object v) throws SQLException {
    return KeyType.BIGINT.canonical(v, "posts", "author_id");
  }

  private static Object compared(Object v) throws SQLException {
    return KeyType.BIGINT.compared(v, "posts", "author_id");
  }

  private static SQLException assertBadKey(org.junit.jupiter.api.function.Executable call, String column) {
    SQLException e = assertThrows(SQLException.class, call);
    assertInstanceOf(SQLDataException.class, e);
    assertEquals("22018", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1002: "), e.getMessage());
    assertTrue(e.getMessage().contains("table posts") || e.getMessage().contains("table devices"), e.getMessage());
    assertTrue(e.getMessage().contains("column " + column), e.getMessage());
    return e;
  }
}
