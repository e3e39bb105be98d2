package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Which texts read or set the session values, and what the shard gets instead of the reads. */
class SessionFunctionsTest {
  private static final SessionFunctions.Values VALUES = new SessionFunctions.Values() {
    @Override
    public String lastInsertId() {
      return "42";
    }

    @Override
    public String rowCount() {
      return "-1";
    }

    @Override
    public String foundRows() throws SQLException {
      throw ShardexError.UNSUPPORTED.exception("FOUND_ROWS() here", "count them");
    }
  };

  @Test
  void flags_readsSetsAndCalc() {
    int id = SessionFunctions.READS | SessionFunctions.READS_ID_OR_FOUND;
    assertEquals(id, SessionFunctions.flags("SELECT LAST_INSERT_ID()"));
    assertEquals(id, SessionFunctions.flags("select last_insert_id ( )"));
    assertEquals(id, SessionFunctions.flags("SELECT @@identity"));
    assertEquals(id, SessionFunctions.flags("SELECT @@SESSION.last_insert_id"));
    assertEquals(id, SessionFunctions.flags("SELECT ROW_COUNT(), FOUND_ROWS()"));
    assertEquals(SessionFunctions.READS, SessionFunctions.flags("UPDATE t SET k = k + ROW_COUNT() WHERE user_id = 1"));
    assertEquals(SessionFunctions.SETS_ID, SessionFunctions.flags("UPDATE seq SET v = LAST_INSERT_ID(v + 1)"));
    assertEquals(SessionFunctions.CALC_FOUND_ROWS, SessionFunctions.flags("SELECT SQL_CALC_FOUND_ROWS * FROM t LIMIT 1"));
  }

  @Test
  void flags_noneInStringsCommentsNamesOrQualifiedColumns() {
    assertEquals(0, SessionFunctions.flags("SELECT * FROM t WHERE user_id = ?"));
    assertEquals(0, SessionFunctions.flags("SELECT 'LAST_INSERT_ID()', \"@@identity\" FROM t"));
    assertEquals(0, SessionFunctions.flags("SELECT 1 /* ROW_COUNT() */ -- FOUND_ROWS()\n FROM t"));
    assertEquals(0, SessionFunctions.flags("SELECT t.row_count, `last_insert_id()`, row_count FROM t"));
    assertEquals(0, SessionFunctions.flags("SELECT @@identity_x, @last_insert_id FROM t"));
  }

  @Test
  void substitute_selectItemKeepsItsLabelAndType() throws SQLException {
    assertEquals("SELECT CAST(42 AS UNSIGNED) AS `LAST_INSERT_ID()`", SessionFunctions.substitute("SELECT LAST_INSERT_ID()", VALUES));
    assertEquals("SELECT CAST(42 AS UNSIGNED) AS `@@identity`, CAST(-1 AS SIGNED) AS `row_count()` FROM dual",
        SessionFunctions.substitute("SELECT @@identity, row_count() FROM dual", VALUES));
    assertEquals("SELECT CAST(42 AS UNSIGNED) AS id", SessionFunctions.substitute("SELECT LAST_INSERT_ID() AS id", VALUES));
  }

  @Test
  void substitute_anExpressionItemIsLabelledWithItsText() throws SQLException {
    assertEquals("SELECT CAST(42 AS UNSIGNED) + 1 AS `LAST_INSERT_ID() + 1`, 2",
        SessionFunctions.substitute("SELECT LAST_INSERT_ID() + 1, 2", VALUES));
    assertEquals("SELECT CONCAT(a, CAST(42 AS UNSIGNED), CAST(-1 AS SIGNED)) AS `CONCAT(a, LAST_INSERT_ID(), ROW_COUNT())` FROM t",
        SessionFunctions.substitute("SELECT CONCAT(a, LAST_INSERT_ID(), ROW_COUNT()) FROM t", VALUES));
    assertEquals("SELECT @x = CAST(42 AS UNSIGNED) `same`", SessionFunctions.substitute("SELECT @x = LAST_INSERT_ID() `same`", VALUES));
    assertEquals("SELECT CAST(42 AS UNSIGNED) IS NULL AS `@@identity IS NULL`",
        SessionFunctions.substitute("SELECT @@identity IS NULL", VALUES));
    assertEquals("SELECT a FROM t WHERE b IN (SELECT CAST(42 AS UNSIGNED) AS `LAST_INSERT_ID()`) AND c = 42",
        SessionFunctions.substitute("SELECT a FROM t WHERE b IN (SELECT LAST_INSERT_ID()) AND c = LAST_INSERT_ID()", VALUES));
  }

  @Test
  void substitute_elsewhereALiteral() throws SQLException {
    assertEquals("INSERT INTO child (parent_id, x) VALUES (42, 'LAST_INSERT_ID()')",
        SessionFunctions.substitute("INSERT INTO child (parent_id, x) VALUES (LAST_INSERT_ID(), 'LAST_INSERT_ID()')", VALUES));
    assertEquals("SELECT * FROM t WHERE id = 42", SessionFunctions.substitute("SELECT * FROM t WHERE id = @@last_insert_id", VALUES));
    assertEquals("SET @id = 42", SessionFunctions.substitute("SET @id = LAST_INSERT_ID()", VALUES));
  }

  @Test
  void substitute_leavesTheSetterAndRefusesAnUnknownValue() throws SQLException {
    assertEquals("UPDATE seq SET v = LAST_INSERT_ID(v + 1)", SessionFunctions.substitute("UPDATE seq SET v = LAST_INSERT_ID(v + 1)", VALUES));
    SQLException e = assertThrows(SQLException.class, () -> SessionFunctions.substitute("SELECT FOUND_ROWS()", VALUES));
    assertTrue(e.getMessage().startsWith("Shardex SHX1209: FOUND_ROWS() here"), e.getMessage());
    assertFalse(e.getSQLState().startsWith("08"));
  }
}
