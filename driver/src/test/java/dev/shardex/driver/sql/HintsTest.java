package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import org.junit.jupiter.api.Test;

/** Routing hints and table declarations in leading {@code /* shardex:... *}{@code /} comments. */
class HintsTest {

  @Test
  void parse_keyHint_routesByKey() throws SQLException {
    Hints h = Hints.parse("/* shardex:key=42 */ SELECT * FROM posts");
    assertEquals("42", h.key());
    assertNull(h.shard());
    assertNull(h.declaration());
    assertTrue(h.routes());
  }

  @Test
  void parse_shardHint_routesToShard() throws SQLException {
    Hints h = Hints.parse("/*shardex:shard=3*/ SELECT COUNT(*) FROM posts");
    assertEquals(3, h.shard());
    assertNull(h.key());
    assertTrue(h.routes());
  }

  @Test
  void parse_shardedDeclaration_keyAndKeySpace() throws SQLException {
    Hints h = Hints.parse("/* shardex:sharded key=author_id keyspace=users */ CREATE TABLE posts (author_id BIGINT)");
    assertEquals(new Hints.Declaration(TableKind.SHARDED, "author_id", "users", null), h.declaration());
    assertFalse(h.routes(), "a declaration is not a routing hint");
  }

  @Test
  void parse_shardedWithoutKeySpace_defaultKeySpace() throws SQLException {
    Hints h = Hints.parse("/* shardex:sharded key=author_id */ CREATE TABLE posts (author_id BIGINT)");
    assertEquals(new Hints.Declaration(TableKind.SHARDED, "author_id", "default", null), h.declaration());
  }

  @Test
  void parse_global_declaration() throws SQLException {
    Hints h = Hints.parse("/* shardex:global */ CREATE TABLE countries (code CHAR(2))");
    assertEquals(new Hints.Declaration(TableKind.GLOBAL, null, null, null), h.declaration());
  }

  @Test
  void parse_singleWithShard_declarationOnThatShard() throws SQLException {
    Hints h = Hints.parse("/* shardex:single shard=2 */ CREATE TABLE jobs (id INT)");
    assertEquals(new Hints.Declaration(TableKind.SINGLE, null, null, 2), h.declaration());
    assertNull(h.shard(), "the shard belongs to the declaration, not to routing");
  }

  @Test
  void parse_singleWithoutShard_homeShardLater() throws SQLException {
    Hints h = Hints.parse("/* shardex:single */ CREATE TABLE jobs (id INT)");
    assertEquals(new Hints.Declaration(TableKind.SINGLE, null, null, null), h.declaration());
  }

  @Test
  void parse_kindInUpperCase_understood() throws SQLException {
    assertEquals(TableKind.GLOBAL, Hints.parse("/* shardex:GLOBAL */ CREATE TABLE c (a INT)").declaration().kind());
  }

  @Test
  void parse_unknownHintName_failsWithShx1102NamingIt() {
    SQLException e = assertThrows(SQLException.class, () -> Hints.parse("/* shardex:shrad=3 */ SELECT 1"));
    assertInstanceOf(SQLSyntaxErrorException.class, e);
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1102: bad hint shrad"), e.getMessage());
  }

  @Test
  void parse_unknownAttributeInDeclaration_failsNamingIt() {
    // A typo in "keyspace" must not silently put the table in the default key space.
    SQLException e = assertThrows(SQLException.class,
        () -> Hints.parse("/* shardex:sharded key=author_id keyspce=users */ CREATE TABLE posts (author_id BIGINT)"));
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1102") || e.getMessage().startsWith("Shardex SHX1103"),
        e.getMessage());
    assertTrue(e.getMessage().contains("keyspce"), e.getMessage());
  }

  @Test
  void parse_nonNumericShard_failsWithShx1102() {
    SQLException e = assertThrows(SQLException.class, () -> Hints.parse("/* shardex:shard=two */ SELECT 1"));
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1102: bad hint shard=two"), e.getMessage());
  }

  @Test
  void parse_shardedWithoutKey_failsWithShx1103() {
    SQLException e = assertThrows(SQLException.class, () -> Hints.parse("/* shardex:sharded */ CREATE TABLE p (a INT)"));
    assertInstanceOf(SQLSyntaxErrorException.class, e);
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1103: "), e.getMessage());
    assertTrue(e.getMessage().contains("key=COLUMN"), e.getMessage());
  }

  @Test
  void parse_twoKinds_failsWithShx1103() {
    SQLException e = assertThrows(SQLException.class,
        () -> Hints.parse("/* shardex:global single */ CREATE TABLE p (a INT)"));
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1103: "), e.getMessage());
    assertTrue(e.getMessage().contains("one of sharded, global, single"), e.getMessage());
  }

  @Test
  void parse_severalLeadingComments_allRead() throws SQLException {
    Hints h = Hints.parse("-- migration 12\n/* plain note */ /* shardex:key=7 */\nSELECT * FROM posts");
    assertEquals("7", h.key());
  }

  @Test
  void parse_hintAfterTheStatementStarts_ignored() throws SQLException {
    assertSame(Hints.NONE, Hints.parse("SELECT /* shardex:key=42 */ * FROM posts"));
    assertSame(Hints.NONE, Hints.parse("SELECT * FROM posts WHERE a = 1 /* shardex:shard=1 */"));
    assertSame(Hints.NONE, Hints.parse("SELECT '/* shardex:key=1 */' FROM posts"));
  }

  @Test
  void parse_hintInLineComment_notAHint() throws SQLException {
    assertSame(Hints.NONE, Hints.parse("-- shardex:key=42\nSELECT * FROM posts"));
  }

  @Test
  void parse_ordinaryComment_none() throws SQLException {
    assertSame(Hints.NONE, Hints.parse("/* just a comment */ SELECT 1"));
    assertSame(Hints.NONE, Hints.parse("SELECT 1"));
  }
}
