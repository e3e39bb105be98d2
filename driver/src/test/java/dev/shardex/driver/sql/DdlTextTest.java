package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** What the driver reads off DDL and session text without parsing it: table comments, AUTO_INCREMENT, inlined SET values. */
class DdlTextTest {
  @Test
  void theTableCommentIsTheOneOutsideTheColumnList() {
    assertEquals("shardex:global", TableComment.of("CREATE TABLE t (id INT COMMENT 'col') ENGINE=InnoDB COMMENT='shardex:global'"));
    assertEquals("it's", TableComment.of("CREATE TABLE t (id INT) COMMENT 'it''s'"));
    assertEquals("x", TableComment.of("CREATE TABLE t (id INT) COMMENT = \"x\""));
    assertNull(TableComment.of("CREATE TABLE t (id INT COMMENT 'shardex:global')"));
    assertNull(TableComment.of("CREATE TABLE t (id INT) /* COMMENT='shardex:global' */"));
    assertNull(TableComment.of("CREATE TABLE t (comment_count INT, `comment` TEXT)"));
  }

  @Test
  void aTableCommentDeclaresLikeALeadingComment() throws SQLException {
    Hints h = Analyzer.analyze("CREATE TABLE p (id BIGINT, user_id BIGINT) COMMENT='shardex:sharded key=user_id sequence=id'").hints();
    assertEquals(new Hints.Declaration(TableKind.SHARDED, "user_id", "default", null, "id"), h.declaration());
    assertNull(Analyzer.analyze("CREATE TABLE p (id BIGINT) COMMENT='people'").hints().declaration());
    // the leading comment wins when both are given
    assertEquals(TableKind.GLOBAL, Analyzer.analyze("/* shardex:global */ CREATE TABLE p (id BIGINT) COMMENT='shardex:single'")
        .hints().declaration().kind());
    SQLException e = assertThrows(SQLException.class,
        () -> Analyzer.analyze("CREATE TABLE p (id BIGINT) COMMENT='shardex:key=3'"));
    assertEquals("42000", e.getSQLState());
  }

  @Test
  void theAutoIncrementColumnIsFoundInTheColumnList() {
    assertEquals("id", AutoIncrement.column("CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT, u BIGINT, PRIMARY KEY (id))"));
    assertEquals("post id", AutoIncrement.column("CREATE TABLE t (u BIGINT, `Post Id` BIGINT auto_increment PRIMARY KEY)"));
    assertNull(AutoIncrement.column("CREATE TABLE t (id BIGINT PRIMARY KEY, note VARCHAR(9) DEFAULT 'AUTO_INCREMENT') AUTO_INCREMENT=5"));
  }

  @Test
  void aNullGivenForASequenceColumnBecomesTheRowsId() throws SQLException {
    InsertSplitter insert = InsertSplitter.of("INSERT INTO t (id, u, note) VALUES (?, ?, 'x, y'), (NULL, ?, f(1, 2))");
    ShardSql second = insert.rewrite(new int[] {1}, "id", new long[] {5, 6}, 0);
    assertEquals("INSERT INTO t (id, u, note) VALUES (6, ?, f(1, 2))", second.text());
    org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {2}, second.params());
    ShardSql both = insert.rewrite(null, "id", new long[] {5, 6}, 0);
    assertEquals("INSERT INTO t (id, u, note) VALUES (5, ?, 'x, y'), (6, ?, f(1, 2))", both.text());
    org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {1, 2}, both.params());
  }

  @Test
  void preparedSessionValuesAreWrittenInAsLiterals() throws SQLException {
    assertEquals("SET a=0, b=1, c='x', d=NULL, e=2.50",
        ParameterInliner.inline("SET a=?, b=?, c=?, d=?, e=?", new Object[] {0, true, "x", null, new java.math.BigDecimal("2.50")},
            new boolean[] {true, true, true, true, true}));
    assertEquals("SET @s = _utf8mb4 X'69742773', @q = '?'",
        ParameterInliner.inline("SET @s = ?, @q = '?'", new Object[] {"it's"}, new boolean[] {true}));
    SQLException e = assertThrows(SQLException.class,
        () -> ParameterInliner.inline("SET a=?, b=?", new Object[] {1, null}, new boolean[] {true, false}));
    assertEquals("07001", e.getSQLState());
  }
}
