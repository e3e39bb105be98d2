package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lexer that takes literals out of plain statements and splits multi-statement text. */
class SqlLexerTest {

  private static void assertNormalised(String sql, String text, Object... literals) {
    NormalizedSql n = SqlLexer.normalise(sql);
    assertEquals(text, n.text(), "text of " + sql);
    assertEquals(Arrays.asList(literals), n.literals(), "literals of " + sql);
  }

  // ---- normalise: literals out ----------------------------------------------------------------------

  @Test
  void normalise_integersAndDecimals_becomeParameters() {
    assertNormalised("SELECT * FROM t WHERE a = 1 AND b > 4.5 AND c < 1e3",
        "SELECT * FROM t WHERE a = ? AND b > ? AND c < ?", 1L, new BigDecimal("4.5"), new BigDecimal("1e3"));
  }

  @Test
  void normalise_sameTemplateForDifferentLiterals() {
    assertEquals(SqlLexer.normalise("SELECT * FROM t WHERE user_id = 1").text(),
        SqlLexer.normalise("SELECT * FROM t WHERE user_id = 29").text());
    assertEquals(SqlLexer.normalise("SELECT * FROM t WHERE name = 'a'").text(),
        SqlLexer.normalise("SELECT * FROM t WHERE name = 'bcd'").text());
  }

  @Test
  void normalise_stringWithDoubledQuote_unescaped() {
    assertNormalised("SELECT * FROM t WHERE s = 'it''s'", "SELECT * FROM t WHERE s = ?", "it's");
  }

  @Test
  void normalise_stringWithBackslashEscapes_unescaped() {
    assertNormalised("INSERT INTO t VALUES ('a\\'b', 'c\\\\d', 'e\\nf')", "INSERT INTO t VALUES (?, ?, ?)",
        "a'b", "c\\d", "e\nf");
  }

  @Test
  void normalise_stringContainingQuoteCharactersAndSemicolon_oneLiteral() {
    assertNormalised("SELECT 'a \"b\" -- c; /* d */' FROM t", "SELECT ? FROM t", "a \"b\" -- c; /* d */");
  }

  @Test
  void normalise_doubleQuotedString_isALiteral() {
    assertNormalised("SELECT * FROM t WHERE s = \"x\"\"y\"", "SELECT * FROM t WHERE s = ?", "x\"y");
  }

  @Test
  void normalise_emptyString_isALiteral() {
    assertNormalised("SELECT * FROM t WHERE s = ''", "SELECT * FROM t WHERE s = ?", "");
  }

  @Test
  void normalise_backQuotedIdentifiers_untouched() {
    assertNormalised("SELECT `col 1`, `it's`, `x\"2` FROM `t1` WHERE `a` = 5",
        "SELECT `col 1`, `it's`, `x\"2` FROM `t1` WHERE `a` = ?", 5L);
  }

  @Test
  void normalise_comments_keptVerbatim() {
    assertNormalised("/* shardex:key=5 */ SELECT 1 -- five 5\nFROM t # 'x' 6\nWHERE a = 2",
        "/* shardex:key=5 */ SELECT ? -- five 5\nFROM t # 'x' 6\nWHERE a = ?", 1L, 2L);
  }

  @Test
  void normalise_digitsInsideNames_untouched() {
    assertNormalised("SELECT t1.x2y, x2y FROM t1 JOIN db2.t3 ON t1.a = t3.b",
        "SELECT t1.x2y, x2y FROM t1 JOIN db2.t3 ON t1.a = t3.b");
  }

  @Test
  void normalise_nameStartingWithDigits_untouched() {
    assertNormalised("SELECT 1abc FROM t", "SELECT 1abc FROM t");
  }

  @Test
  void normalise_hexAndBitLiterals_kept() {
    assertNormalised("SELECT * FROM t WHERE a = 0x1F AND b = x'1F' AND c = X'AB' AND d = b'101'",
        "SELECT * FROM t WHERE a = 0x1F AND b = x'1F' AND c = X'AB' AND d = b'101'");
  }

  @Test
  void normalise_introducedStrings_kept() {
    assertNormalised("SELECT * FROM t WHERE a = _utf8'x' AND b = N'y' AND c = _utf8mb4'z' COLLATE utf8mb4_bin",
        "SELECT * FROM t WHERE a = _utf8'x' AND b = N'y' AND c = _utf8mb4'z' COLLATE utf8mb4_bin");
  }

  @Test
  void normalise_negativeNumbersAfterOperatorBracketOrComma_oneNegativeLiteral() {
    assertNormalised("SELECT * FROM t WHERE a = -5 AND b IN (-1, -2) AND c > -3.5 AND f(-4) <> -6",
        "SELECT * FROM t WHERE a = ? AND b IN (?, ?) AND c > ? AND f(?) <> ?",
        -5L, -1L, -2L, new BigDecimal("-3.5"), -4L, -6L);
  }

  @Test
  void normalise_subtraction_staysSubtractionWithAPositiveLiteral() {
    assertNormalised("SELECT a - 1, a-2, a -3 FROM t", "SELECT a - ?, a-?, a -? FROM t", 1L, 2L, 3L);
  }

  @Test
  void normalise_intervalCount_kept() {
    assertNormalised("SELECT * FROM t WHERE d > NOW() - INTERVAL 7 DAY AND u = 3",
        "SELECT * FROM t WHERE d > NOW() - INTERVAL 7 DAY AND u = ?", 3L);
    assertNormalised("SELECT DATE_ADD(d, interval 30 minute) FROM t", "SELECT DATE_ADD(d, interval 30 minute) FROM t");
  }

  @Test
  void normalise_placeholders_untouched() {
    assertNormalised("SELECT * FROM t WHERE a = ? AND b = 2", "SELECT * FROM t WHERE a = ? AND b = ?", 2L);
  }

  @Test
  void normalise_noLiterals_sameText() {
    String sql = "SELECT a, b FROM t WHERE a = b";
    assertNormalised(sql, sql);
  }

  // ---- split -----------------------------------------------------------------------------------------

  @Test
  void split_topLevelSemicolons_separateStatements() {
    assertEquals(List.of("SELECT 1", "SELECT 2", "UPDATE t SET a = 1"),
        SqlLexer.split("SELECT 1; SELECT 2 ;\n UPDATE t SET a = 1"));
  }

  @Test
  void split_semicolonsInStringsCommentsAndBackQuotes_notSplit() {
    assertEquals(List.of("SELECT ';', \";\", `a;b` FROM t /* x; y */", "SELECT 'it''s; \\' ;'"),
        SqlLexer.split("SELECT ';', \";\", `a;b` FROM t /* x; y */; SELECT 'it''s; \\' ;'"));
  }

  @Test
  void split_semicolonInLineComments_notSplit() {
    assertEquals(List.of("SELECT 1 -- a; b\n+ 1", "SELECT 2 # c; d"),
        SqlLexer.split("SELECT 1 -- a; b\n+ 1; SELECT 2 # c; d\n"));
  }

  @Test
  void split_emptyAndCommentOnlyPieces_dropped() {
    assertEquals(List.of("SELECT 1"), SqlLexer.split(";; SELECT 1;  ; -- done\n"));
    assertEquals(List.of(), SqlLexer.split("  ;  "));
  }

  @Test
  void split_single_oneStatement() {
    assertEquals(List.of("SELECT 1"), SqlLexer.split("SELECT 1"));
  }

  // ---- firstKeyword ------------------------------------------------------------------------------------

  @Test
  void firstKeyword_plain_upperCased() {
    assertEquals("SELECT", SqlLexer.firstKeyword("select * from t"));
    assertEquals("INSERT", SqlLexer.firstKeyword("  Insert into t values (1)"));
  }

  @Test
  void firstKeyword_leadingComments_skipped() {
    assertEquals("UPDATE", SqlLexer.firstKeyword("/* shardex:key=1 */ -- note\n # more\n update t set a = 1"));
  }

  @Test
  void firstKeyword_leadingParentheses_skipped() {
    assertEquals("SELECT", SqlLexer.firstKeyword("((SELECT 1) UNION (SELECT 2))"));
    assertEquals("WITH", SqlLexer.firstKeyword("( /* c */ ( with x as (select 1) select * from x))"));
  }

  @Test
  void firstKeyword_nothing_empty() {
    assertEquals("", SqlLexer.firstKeyword(""));
    assertEquals("", SqlLexer.firstKeyword("  /* only a comment */ "));
  }
}
