package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** A step's whole-number parameters written into its text, as Connector/J's setLong would send them. */
class InlinedNumbersTest {

  @Test
  void chosenWholeNumbersReplaceTheMarkersInOrder() {
    Object[] values = {7L, 3L, 6, 9L};
    assertEquals("SELECT u.name, u.id FROM u WHERE u.id IN (9, 3) AND u.tenant = 7",
        InlinedNumbers.of("SELECT u.name, u.id FROM u WHERE u.id IN (?, ?) AND u.tenant = ?", new int[] {3, 1, 0}, values));
    assertEquals("SELECT 6", InlinedNumbers.of("SELECT ?", new int[] {2}, values));
  }

  @Test
  void markersInsideQuotesAndCommentsStay() {
    Object[] values = {1L, 2L};
    assertEquals("SELECT '?', \"?\", `a?` /* ? */ FROM t WHERE a = 1 -- ?\n AND b = 2 # ?",
        InlinedNumbers.of("SELECT '?', \"?\", `a?` /* ? */ FROM t WHERE a = ? -- ?\n AND b = ? # ?", new int[] {0, 1}, values));
  }

  @Test
  void negativeAndExtremeValuesAsTheirDigits() {
    Object[] values = {-5L, Long.MIN_VALUE, Long.MAX_VALUE};
    assertEquals("SELECT * FROM t WHERE a IN (-5, -9223372036854775808, 9223372036854775807)",
        InlinedNumbers.of("SELECT * FROM t WHERE a IN (?, ?, ?)", new int[] {0, 1, 2}, values));
  }

  @Test
  void anyOtherValueLeavesTheStatementToBeBound() {
    String sql = "SELECT * FROM t WHERE a = ? AND b = ?";
    assertNull(InlinedNumbers.of(sql, new int[] {0, 1}, new Object[] {1L, "x"}));
    assertNull(InlinedNumbers.of(sql, new int[] {0, 1}, new Object[] {1L, new BigDecimal("2.5")}));
    assertNull(InlinedNumbers.of(sql, new int[] {0, 1}, new Object[] {1L, null}));
  }

  @Test
  void aMarkerCountOtherThanTheChosenValuesIsNotGuessed() {
    Object[] values = {1L, 2L};
    assertNull(InlinedNumbers.of("SELECT * FROM t WHERE a = ?", new int[] {0, 1}, values));
    assertNull(InlinedNumbers.of("SELECT * FROM t WHERE a = ? AND b = ? AND c = ?", new int[] {0, 1}, values));
  }
}
