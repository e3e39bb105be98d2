package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
