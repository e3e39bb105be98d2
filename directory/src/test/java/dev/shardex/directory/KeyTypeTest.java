package dev.shardex.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLDataException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Canonical key forms: what makes two key values the same key. */
class KeyTypeTest {

  @Test
  void canonical_bigintFromEveryNumericForm_isTheSameLong() throws SQLException {
    Object expected = 42L;
    assertEquals(expected, KeyType.BIGINT.canonical(42, "posts"));
    assertEquals(expected, KeyType.BIGINT.canonical(42L, "posts"));
    assertEquals(expected, KeyType.BIGINT.canonical("42", "posts"));
    assertEquals(expected, KeyType.BIGINT.canonical(new BigDecimal("42"), "posts"));
    assertEquals(expected, KeyType.BIGINT.canonical(BigInteger.valueOf(42), "posts"));
    assertEquals(expected, KeyType.BIGINT.canonical((short) 42, "posts"));
    assertEquals(expected, KeyType.BIGINT.canonical((byte) 42, "posts"));
  }

  @Test
  void canonical_bigint_isALongSoCacheKeysAgree() throws SQLException {
    assertInstanceOf(Long.class, KeyType.BIGINT.canonical(7, "posts"));
    assertEquals(KeyType.BIGINT.canonical(7, "posts").hashCode(), KeyType.BIGINT.canonical("7", "posts").hashCode());
  }

  @Test
  void canonical_bigintExtremes_kept() throws SQLException {
    assertEquals(Long.MAX_VALUE, KeyType.BIGINT.canonical(Long.toString(Long.MAX_VALUE), "posts"));
    assertEquals(-5L, KeyType.BIGINT.canonical("-5", "posts"));
    assertEquals(0L, KeyType.BIGINT.canonical(BigDecimal.ZERO, "posts"));
  }

  @Test
  void canonical_bigintFromDecimalText_failsWith22018NamingTheTable() {
    assertBadKey("4.5");
  }

  @Test
  void canonical_bigintFromLetters_failsWith22018NamingTheTable() {
    assertBadKey("abc");
  }

  @Test
  void canonical_bigintFromFractionalBigDecimal_failsWith22018() {
    assertBadKey(new BigDecimal("4.5"));
  }

  @Test
  void canonical_bigintOutOfRange_failsWith22018() {
    assertBadKey("99999999999999999999");
    assertBadKey(new BigInteger("99999999999999999999"));
  }

  @Test
  void canonical_null_failsWith22004NamingTheTable() {
    for (KeyType type : KeyType.values()) {
      SQLException e = assertThrows(SQLException.class, () -> type.canonical(null, "posts"));
      assertInstanceOf(SQLDataException.class, e);
      assertEquals("22004", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1001: "), e.getMessage());
      assertTrue(e.getMessage().contains("table posts"), e.getMessage());
    }
  }

  @Test
  void canonical_stringFromBytes_isLowerCaseHex() throws SQLException {
    assertEquals("00ff1fab", KeyType.STRING.canonical(new byte[] {0x00, (byte) 0xff, 0x1f, (byte) 0xab}, "devices"));
  }

  @Test
  void canonical_stringFromText_unchanged() throws SQLException {
    assertEquals("Ab-9 ", KeyType.STRING.canonical("Ab-9 ", "devices"));
    assertEquals("42", KeyType.STRING.canonical(42, "devices"));
  }

  private static void assertBadKey(Object value) {
    SQLException e = assertThrows(SQLException.class, () -> KeyType.BIGINT.canonical(value, "posts"));
    assertInstanceOf(SQLDataException.class, e);
    assertEquals("22018", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1002: "), e.getMessage());
    assertTrue(e.getMessage().contains("table posts"), e.getMessage());
    assertTrue(e.getMessage().contains("'" + value + "'"), "names the value: " + e.getMessage());
  }
}
