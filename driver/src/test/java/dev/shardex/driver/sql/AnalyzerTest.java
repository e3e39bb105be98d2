package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.sql.ValueSource.Literal;
import dev.shardex.driver.sql.ValueSource.Param;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SQL text to route template: tables, scopes, key predicates, join links, written rows. */
class AnalyzerTest {

  private static KeyPredicate key(int scope, String qualifier, String column, ValueSource... values) {
    return new KeyPredicate(new ColumnRef(scope, qualifier, column), List.of(values));
  }

  private static ColumnLink link(ColumnRef a, ColumnRef b) {
    return new ColumnLink(a, b);
  }

  // ---- tables, aliases, scopes ------------------------------------------------------------------------

  @Test
  void analyze_joinWithAliases_tablesLinksAndKeys() throws SQLException {
    RouteTemplate t = Analyzer.analyze("SELECT p.title FROM posts p JOIN comments AS c ON c.author_id = p.author_id "
        + "WHERE p.author_id = ? AND c.flag = 5");

    assertEquals(StatementType.SELECT, t.type());
    assertEquals(List.of(new TableRef("posts", "p", 0, 0), new TableRef("comments", "c", 0, 0)), t.tables());
    assertEquals(List.of(link(new ColumnRef(0, "c", "author_id"), new ColumnRef(0, "p", "author_id"))), t.links());
    assertEquals(List.of(key(0, "p", "author_id", new Param(0)), key(0, "c", "flag", new Literal(5L))), t.keys());
    assertEquals(1, t.parameterCount());
    assertNull(t.shape().needsMerge());
  }

  @Test
  void analyze_qualifiedBackQuotedMixedCase_normalised() throws SQLException {
    RouteTemplate t = Analyzer.analyze("SELECT * FROM `appdb`.`Posts` AS `P` WHERE `P`.`Author_Id` = 7");

    assertEquals(List.of(new TableRef("posts", "p", 0, 0)), t.tables());
    assertEquals(List.of(key(0, "p", "author_id", new Literal(7L))), t.keys());
  }

  @Test
  void analyze_unqualifiedColumn_noQualifier() throws SQLException {
    RouteTemplate t = Analyzer.analyze("SELECT * FROM posts WHERE author_id = 'x'");
    assertEquals(List.of(new TableRef("posts", null, 0, 0)), t.tables());
    assertEquals(List.of(key(0, null, "author_id", new Literal("x"))), t.keys());
  }

  @Test
  void analyze_subqueryInWhere_ownScopeWithParent() throws SQLException {
    RouteTemplate t = Analyzer.analyze(
        "SELECT * FROM posts WHERE post_id IN (SELECT post_id FROM comments WHERE commenter_id = ?)");

    assertEquals(2, t.tables().size());
    TableRef outer = t.tables().get(0);
    TableRef inner = t.tables().get(1);
    assertEquals("posts", outer.name());
    assertEquals("comments", inner.name());
    assertEquals(0, outer.scope());
    assertTrue(inner.scope() > 0, "the subquery has its own scope");
    assertEquals(0, t.scopeParents()[inner.scope()], "whose parent is the outer SELECT");
    assertEquals(-1, t.scopeParents()[0]);
    assertEquals(List.of(link(new ColumnRef(0, null, "post_id"), new ColumnRef(inner.scope(), null, "post_id"))), t.links());
    assertEquals(List.of(key(inner.scope(), null, "commenter_id", new Param(0))), t.keys());
  }

  @Test
  void analyze_usingJoin_linksTheColumn() throws SQLException {
    RouteTemplate t = Analyzer.analyze("SELECT * FROM posts JOIN comments USING (author_id) WHERE author_id = 3");

    assertEquals(List.of(link(new ColumnRef(0, "posts", "author_id"), new ColumnRef(0, "comments", "author_id"))),
        t.links());
  }

  @Test
  void analyze_unionAll_branchesNumbered() throws SQLException {
    RouteTemplate t = Analyzer.analyze("SELECT a FROM posts WHERE author_id = 1 UNION ALL SELECT a FROM posts WHERE author_id = 2");

    assertEquals(2, t.tables().size());
    assertEquals(0, t.tables().get(0).branch());
    assertEquals(1, t.tables().get(1).branch());
    assertFalse(t.shape().union(), "UNION ALL concatenates exactly");
    assertTrue(Analyzer.analyze("SELECT a FROM posts UNION SELECT a FROM posts").shape().union());
  }

  // ---- key predicates -------------------------------------------------------------------------------

  @Test
  void analyze_keyInAnyAndPosition_found() throws SQLException {
    for (String where : List.of(
        "author_id IN (?, ?) AND x > 1 AND y = 'a'",
        "x > 1 AND author_id IN (?, ?) AND y = 'a'",
        "x > 1 AND y = 'a' AND author_id IN (?, ?)",
        "x > 1 AND (y = 'a' AND (author_id IN (?, ?)))")) {
      RouteTemplate t = Analyzer.analyze("SELECT * FROM posts WHERE " + where);
      List<KeyPredicate> onKey = t.keys().stream().filter(k -> k.column().column().equals("author_id")).toList();
      assertEquals(List.of(key(0, null, "author_id", new Param(0), new Param(1))), onKey, where);
      assertEquals(2, t.parameterCount(), where);
    }
  }

  @Test
  void analyze_literalOnTheLeft_stillAKeyPredicate() throws SQLException {
    assertEquals(List.of(key(0, null, "author_id", new Literal(9L))),
        Analyzer.analyze("SELECT * FROM posts WHERE 9 = author_id").keys());
  }

  @Test
  void analyze_negativeLiteral_keyValue() throws SQLException {
    assertEquals(List.of(key(0, null, "author_id", new Literal(-9L))),
        Analyzer.analyze("SELECT * FROM posts WHERE author_id = -9").keys());
  }

  @Test
  void analyze_or_noKeyPredicates() throws SQLException {
    assertEquals(List.of(), Analyzer.analyze("SELECT * FROM posts WHERE author_id = 1 OR author_id = 2").keys());
    assertEquals(List.of(), Analyzer.analyze("SELECT * FROM posts WHERE (author_id = 1 AND x = 2) OR y = 3").keys());
  }

  @Test
  void analyze_orBesideAnAndedKey_onlyTheAndedKey() throws SQLException {
    assertEquals(List.of(key(0, null, "author_id", new Literal(1L))),
        Analyzer.analyze("SELECT * FROM posts WHERE author_id = 1 AND (x = 2 OR y = 3)").keys());
  }

  @Test
  void analyze_notInAndExpressions_noKeyPredicates() throws SQLException {
    assertEquals(List.of(), Analyzer.analyze("SELECT * FROM posts WHERE author_id NOT IN (1, 2)").keys());
    assertEquals(List.of(), Analyzer.analyze("SELECT * FROM posts WHERE author_id = 1 + 1").keys());
    assertEquals(List.of(), Analyzer.analyze("SELECT * FROM posts WHERE author_id > 5").keys());
  }

  // ---- writes ---------------------------------------------------------------------------------------

  @Test
  void analyze_multiRowInsert_columnsAndRows() throws SQLException {
    RouteTemplate t = Analyzer.analyze("INSERT INTO posts (author_id, title) VALUES (?, 'a'), (7, ?)");

    assertEquals(StatementType.INSERT, t.type());
    assertEquals("posts", t.targetTable().name());
    assertEquals(List.of("author_id", "title"), t.insertColumns());
    assertEquals(List.of(List.of(new Param(0), new Literal("a")), List.of(new Literal(7L), new Param(1))), t.insertRows());
    assertEquals(2, t.parameterCount());
    assertFalse(t.insertSelect());
  }

  @Test
  void analyze_insertSet_oneRow() throws SQLException {
    RouteTemplate t = Analyzer.analyze("INSERT INTO posts SET author_id = 3, title = 'x'");

    assertEquals(List.of("author_id", "title"), t.insertColumns());
    assertEquals(List.of(List.of(new Literal(3L), new Literal("x"))), t.insertRows());
  }

  @Test
  void analyze_insertOnDuplicateKeyUpdate_assignments() throws SQLException {
    RouteTemplate t = Analyzer.analyze(
        "INSERT INTO authors (author_id, name) VALUES (?, ?) ON DUPLICATE KEY UPDATE name = VALUES(name), visits = 0");

    assertEquals(StatementType.INSERT, t.type());
    assertEquals(List.of("name", "visits"), List.copyOf(t.assignments().keySet()));
    assertInstanceOf(ValueSource.Opaque.class, t.assignments().get("name"));
    assertEquals(new Literal(0L), t.assignments().get("visits"));
  }

  @Test
  void analyze_insertSelect_flagged() throws SQLException {
    RouteTemplate t = Analyzer.analyze("INSERT INTO posts (author_id, title) SELECT author_id, name FROM authors");
    assertTrue(t.insertSelect());
    assertEquals("posts", t.targetTable().name());
  }

  @Test
  void analyze_replace_typeReplaceWithRows() throws SQLException {
    RouteTemplate t = Analyzer.analyze("REPLACE INTO posts (author_id, title) VALUES (5, 'b')");
    assertEquals(StatementType.REPLACE, t.type());
    assertEquals("posts", t.targetTable().name());
    assertEquals(List.of(List.of(new Literal(5L), new Literal("b"))), t.insertRows());
  }

  @Test
  void analyze_update_assignmentsKeysAndTarget() throws SQLException {
    RouteTemplate t = Analyzer.analyze("UPDATE posts p SET p.title = ?, author_id = 5 WHERE p.author_id = ? AND x = 1");

    assertEquals(StatementType.UPDATE, t.type());
    assertEquals(new TableRef("posts", "p", 0, 0), t.targetTable());
    assertEquals(new Param(0), t.assignments().get("title"));
    assertEquals(new Literal(5L), t.assignments().get("author_id"));
    assertTrue(t.keys().contains(key(0, "p", "author_id", new Param(1))), t.keys().toString());
    assertEquals(2, t.parameterCount());
    assertFalse(t.writeLimit());
  }

  @Test
  void analyze_updateOrDeleteWithLimitOrOrder_writeLimit() throws SQLException {
    assertTrue(Analyzer.analyze("UPDATE posts SET a = 1 WHERE author_id = 2 LIMIT 3").writeLimit());
    assertTrue(Analyzer.analyze("DELETE FROM posts WHERE author_id = 2 ORDER BY id").writeLimit());
    assertFalse(Analyzer.analyze("DELETE FROM posts WHERE author_id = 2").writeLimit());
  }

  @Test
  void analyze_delete_targetAndKey() throws SQLException {
    RouteTemplate t = Analyzer.analyze("DELETE FROM comments WHERE author_id IN (1, 2, 3)");
    assertEquals(StatementType.DELETE, t.type());
    assertEquals("comments", t.targetTable().name());
    assertEquals(List.of(key(0, null, "author_id", new Literal(1L), new Literal(2L), new Literal(3L))), t.keys());
  }

  // ---- shapes ---------------------------------------------------------------------------------------

  @Test
  void analyze_selectNeedingAMerge_shapeSaysWhy() throws SQLException {
    assertTrue(Analyzer.analyze("SELECT COUNT(*) FROM posts").shape().aggregates());
    assertTrue(Analyzer.analyze("SELECT a FROM posts GROUP BY a").shape().groupBy());
    assertTrue(Analyzer.analyze("SELECT DISTINCT a FROM posts").shape().distinct());
    RouteTemplate ordered = Analyzer.analyze("SELECT a FROM posts ORDER BY a LIMIT 3");
    assertTrue(ordered.shape().orderBy());
    assertTrue(ordered.shape().limit());
    assertEquals("subquery (aggregate, GROUP BY, DISTINCT or LIMIT inside)",
        Analyzer.analyze("SELECT * FROM (SELECT a FROM posts LIMIT 3) x").shape().needsMerge());
  }

  // ---- statement types --------------------------------------------------------------------------------

  @Test
  void analyze_sessionStatements_session() throws SQLException {
    assertEquals(StatementType.SESSION, Analyzer.analyze("SET @a = 1").type());
    assertEquals(StatementType.SESSION, Analyzer.analyze("set session transaction isolation level read committed").type());
    assertEquals(StatementType.SESSION, Analyzer.analyze("USE appdb").type());
  }

  @Test
  void analyze_transactionStatements_transaction() throws SQLException {
    for (String sql : List.of("BEGIN", "START TRANSACTION", "COMMIT", "ROLLBACK", "SAVEPOINT s1", "/* c */ commit")) {
      assertEquals(StatementType.TRANSACTION, Analyzer.analyze(sql).type(), sql);
    }
  }

  @Test
  void analyze_createTable_ddlWithTableAndDeclaration() throws SQLException {
    RouteTemplate t = Analyzer.analyze(
        "/* shardex:sharded key=author_id */ CREATE TABLE IF NOT EXISTS `appdb`.`Posts` (author_id BIGINT)");
    assertEquals(StatementType.DDL, t.type());
    assertEquals(new Ddl(Ddl.Verb.CREATE_TABLE, List.of("posts")), t.ddl());
    assertNotNull(t.hints().declaration());
    assertEquals("author_id", t.hints().declaration().keyColumn());
  }

  @Test
  void analyze_otherDdl_verbsAndTables() throws SQLException {
    assertEquals(new Ddl(Ddl.Verb.DROP_TABLE, List.of("a", "b")), Analyzer.analyze("DROP TABLE IF EXISTS a, `B`").ddl());
    assertEquals(new Ddl(Ddl.Verb.ALTER_TABLE, List.of("posts")), Analyzer.analyze("ALTER TABLE posts ADD c INT").ddl());
    assertEquals(new Ddl(Ddl.Verb.RENAME, List.of("a", "b")), Analyzer.analyze("RENAME TABLE a TO b").ddl());
    assertEquals(new Ddl(Ddl.Verb.TRUNCATE, List.of("posts")), Analyzer.analyze("TRUNCATE TABLE posts").ddl());
  }

  @Test
  void analyze_explainRoute_explainRoute() throws SQLException {
    assertEquals(StatementType.EXPLAIN_ROUTE, Analyzer.analyze("EXPLAIN ROUTE SELECT * FROM posts").type());
    assertEquals("SELECT * FROM posts", Analyzer.explained("explain  route\nSELECT * FROM posts"));
    assertEquals(StatementType.EXPLAIN, Analyzer.analyze("EXPLAIN SELECT * FROM posts").type());
    assertNull(Analyzer.explained("EXPLAIN SELECT * FROM posts"));
  }

  @Test
  void analyze_explainOfAStatement_explainWithItsParameterCount() throws SQLException {
    assertEquals(StatementType.EXPLAIN, Analyzer.analyze("DESC UPDATE posts SET x = ? WHERE author_id = ?").type());
    assertEquals(1, Analyzer.analyze("EXPLAIN FORMAT = JSON DELETE FROM posts WHERE author_id = ? AND x = '?'").parameterCount());
    assertEquals(StatementType.EXPLAIN, Analyzer.analyze("describe extended with a AS (SELECT 1) SELECT * FROM a").type());
  }

  @Test
  void analyze_explainOfATable_otherAsBefore() throws SQLException {
    for (String sql : List.of("DESCRIBE posts", "EXPLAIN posts", "DESC posts author_id", "EXPLAIN FOR CONNECTION 7",
        "ANALYZE TABLE posts")) {
      assertEquals(StatementType.OTHER, Analyzer.analyze(sql).type(), sql);
    }
  }

  @Test
  void analyze_analyzeOfAStatement_refused() {
    for (String sql : List.of("ANALYZE SELECT * FROM posts", "EXPLAIN ANALYZE SELECT 1", "ANALYZE FORMAT=JSON DELETE FROM posts")) {
      SQLException e = assertThrows(SQLException.class, () -> Analyzer.analyze(sql));
      assertEquals("0AS00", e.getSQLState(), sql);
    }
  }

  @Test
  void explainText_splitsTheVerbFromTheStatement_keepingLeadingHints() {
    ExplainText e = ExplainText.of("/* shardex:key=5 */ EXPLAIN EXTENDED FORMAT=json\nSELECT * FROM posts");
    assertEquals("EXPLAIN EXTENDED FORMAT=json\n", e.prefix());
    assertEquals("/* shardex:key=5 */ SELECT * FROM posts", e.statement());
    assertNull(ExplainText.of("EXPLAIN ROUTE SELECT 1"));
    assertNull(ExplainText.of("SELECT 1"));
  }

  @Test
  void analyze_otherStatements_other() throws SQLException {
    assertEquals(StatementType.OTHER, Analyzer.analyze("SHOW TABLES").type());
    assertEquals(StatementType.OTHER, Analyzer.analyze("DO 1").type());
  }

  // ---- parse failures ---------------------------------------------------------------------------------

  @Test
  void analyze_unparseable_failsWithShx1101() {
    SQLException e = assertThrows(SQLException.class, () -> Analyzer.analyze("SELECT FROM WHERE posts"));
    assertEquals("42000", e.getSQLState());
    assertTrue(e.getMessage().startsWith("Shardex SHX1101: cannot parse the statement"), e.getMessage());
  }

  @Test
  void analyze_unparseableWithRoutingHint_unparsedTemplate() throws SQLException {
    RouteTemplate t = Analyzer.analyze("/* shardex:shard=1 */ SELECT FROM WHERE posts");
    assertEquals(StatementType.SELECT, t.type());
    assertEquals(1, t.hints().shard());
    assertNotNull(t.parseError());
    assertTrue(t.parseError().getMessage().startsWith("Shardex SHX1101"));
  }
}
