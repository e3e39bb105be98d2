package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class TemplateCacheUnitTest {
  @Test
  void plain_unparseable_failsWithTheParserReason() {
    TemplateCache cache = new TemplateCache(100);
    SQLException e = assertThrows(SQLException.class, () -> cache.plain("SELECT * FROM er_rows WHERE user_id = ("));
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1101: cannot parse the statement (Encountered"), e.getMessage());
  }

  @Test
  void plain_literalThatCannotBeAParameter_fallsBackToTheRawText() throws SQLException {
    TemplateCache cache = new TemplateCache(100);
    Analysis a = cache.plain("SELECT CAST(v AS DECIMAL(10,2)) FROM t WHERE user_id = 5");
    assertEquals(StatementType.SELECT, a.template().type());
    assertEquals(0, a.literals().length, "raw template: literals stay in the text");
    assertEquals(1, a.template().keys().size());
    assertEquals(new ValueSource.Literal(5L), a.template().keys().get(0).values().get(0));
    cache.plain("SELECT CAST(v AS DECIMAL(10,2)) FROM t WHERE user_id = 5");
    assertEquals(2, cache.analyses(), "normalised attempt + raw parse, then cached");
  }

  @Test
  void plain_literalsBecomeValues() throws SQLException {
    TemplateCache cache = new TemplateCache(100);
    Analysis a = cache.plain("SELECT * FROM posts WHERE author_id IN (1, 2) AND title = 'it''s'");
    assertEquals(3, a.literals().length);
    assertEquals(1L, a.literals()[0]);
    assertEquals("it's", a.literals()[2]);
    assertEquals(2, a.template().keys().get(0).values().size());
  }

  /** JSqlParser 5.3 parsed "k IN (..) AND x = ?" as k IN ((..) AND x = ?) (JSqlParser #2282); 5.4 is right. */
  @Test
  void plain_inFollowedByAnd_jsqlparser2282() throws SQLException {
    TemplateCache cache = new TemplateCache(100);
    Analysis a = cache.plain("SELECT * FROM posts WHERE author_id IN (1, 2) AND title = 'x'");
    assertEquals(2, a.template().keys().size(), "both conjuncts seen: " + a.template().keys());
    assertEquals("author_id", a.template().keys().get(0).column().column());
  }

  @Test
  void plain_textsDifferingOnlyInLiterals_shareOneTemplate() throws SQLException {
    TemplateCache cache = new TemplateCache(100);
    Analysis first = cache.plain("SELECT * FROM posts WHERE user_id = 5 AND title = 'it''s' LIMIT 10");
    Analysis a = cache.plain("SELECT * FROM posts WHERE user_id = -77 AND title = 'a\\'b?' LIMIT 3");
    assertEquals(1, cache.analyses());
    assertSame(first.template(), a.template());
    assertArrayEquals(new Object[] {-77L, "a'b?", 3L}, a.literals());
    assertEquals("SELECT * FROM posts WHERE user_id = ? AND title = ? LIMIT ?", a.text());
  }

  @Test
  void plain_textsDifferingInAnythingButLiterals_neverShareATemplate() throws SQLException {
    String[] texts = {"SELECT * FROM posts WHERE user_id = 5", "SELECT * FROM posts WHERE user_id = 5 ",
        "select * FROM posts WHERE user_id = 5", "SELECT * FROM posts WHERE author_id = 5",
        "SELECT * FROM posts WHERE `user_id` = 5", "SELECT * FROM posts WHERE user_id = 0x5",
        "SELECT * FROM posts WHERE user_id = b'101'", "SELECT * FROM posts WHERE user_id = 5 - 1",
        "/* shardex: key=5 */ SELECT * FROM posts WHERE user_id = 5",
        "/* shardex: key=6 */ SELECT * FROM posts WHERE user_id = 5",
        "SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM posts WHERE user_id = 5",
        "SELECT /*+ MAX_EXECUTION_TIME(2000) */ * FROM posts WHERE user_id = 5",
        "SELECT * FROM posts WHERE user_id = 5 -- 5\n", "SELECT * FROM posts WHERE user_id = 5 -- 6\n",
        "SELECT * FROM posts WHERE user_id = 5 # 6\n", "SELECT * FROM posts WHERE user_id = 5 ORDER BY 1",
        "SELECT * FROM posts WHERE user_id = 5 ORDER BY 2", "SELECT * FROM posts WHERE user_id IN (5, 6)",
        "SELECT * FROM posts WHERE user_id IN (5, 6, 7)", "SELECT * FROM posts WHERE user_id = 5 AND title = `it's`",
        "SELECT * FROM posts WHERE user_id = 5 AND title = _utf8'x'",
        "SELECT * FROM posts WHERE user_id = 5 AND title = _utf8'y'",
        "SELECT * FROM posts WHERE user_id = 5 AND d > NOW() - INTERVAL 7 DAY",
        "SELECT * FROM posts WHERE user_id = 5 AND d > NOW() - INTERVAL 8 DAY"};
    TemplateCache cache = new TemplateCache(100);
    Analysis[] first = new Analysis[texts.length];
    for (int i = 0; i < texts.length; i++) {
      first[i] = cache.plain(texts[i]);
      for (int j = 0; j < i; j++) {
        assertNotSame(first[j].template(), first[i].template(), texts[j] + " | " + texts[i]);
      }
    }
    long analyses = cache.analyses();
    for (int i = 0; i < texts.length; i++) {
      assertSame(first[i].template(), cache.plain(texts[i]).template(), texts[i]);
    }
    assertEquals(analyses, cache.analyses(), "every text found its own template again");
  }

  @Test
  void plain_aMarkerOfTheTextsOwn_isRefusedByName_whateverElseItHolds() throws SQLException {
    TemplateCache cache = new TemplateCache(100);
    for (String sql : new String[] {"SELECT AVG(?) FROM fz_a", "SELECT v FROM t WHERE user_id IN (1, 2, 3) ORDER BY ?",
        "SELECT v FROM t WHERE s = 'x' AND v > ?", "SELECT CAST(v AS DECIMAL(10,2)) FROM t WHERE user_id = ?"}) {
      SQLException e = assertThrows(SQLException.class, () -> cache.plain(sql), sql);
      assertEquals("0AS00", e.getSQLState(), sql);
      assertTrue(e.getMessage().contains("SHX1209") && e.getMessage().contains("a ? marker in the text of a plain Statement")
          && e.getMessage().contains("PreparedStatement"), e.getMessage());
      assertThrows(SQLException.class, () -> cache.plain(sql), "refused again from the cache: " + sql);
    }
    // literals of every kind, a ? inside a string or a comment: as many markers as literals, accepted
    for (String sql : new String[] {"SELECT * FROM t WHERE a IN (1, -2, 3.5) AND b = 'is ? a marker' LIMIT 10 OFFSET 5",
        "SELECT * FROM t /* ? */ WHERE h = X'0a' AND b = b'01' AND c = 1e5 AND d = _utf8'x' AND e = NULL",
        "SELECT * FROM t WHERE created_at > NOW() - INTERVAL 1 DAY AND s = \"?\" -- ?"}) {
      Analysis a = cache.plain(sql);
      assertEquals(a.literals().length, SqlLexer.countParameters(a.text()), sql + " -> " + a.text());
    }
  }

  @Test
  void aNumberedMarker_isRefusedByName() {
    for (String sql : new String[] {"SELECT v FROM t WHERE user_id IN (?, ?0, ?)", "UPDATE t SET v = ?1 WHERE user_id = ?2",
        "DELETE FROM t WHERE user_id IN (? 0, ?) AND v < 0", "SELECT v FROM t WHERE user_id = ? /* x */\n1"}) {
      SQLException e = assertThrows(SQLException.class, () -> new TemplateCache(10).prepared(sql), sql);
      assertEquals("0AS00", e.getSQLState(), sql);
      assertTrue(e.getMessage().contains("numbered ? marker"), e.getMessage());
    }
    assertEquals(1, SqlLexer.countParameters("SELECT '?1', v FROM t WHERE a = ? /* ?2 */"), "quoted and commented ?N are text");
    assertTrue(!SqlLexer.hasNumberedMarker("SELECT '?1', v FROM t WHERE a = ? /* ?2 */"));
  }
}
