package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** A SET is tried on a shard before it is recorded: a bad one is refused with the shard's error and poisons nothing. */
class SetValidationTest {
  @Test
  void badSetIsRefusedAndTheConnectionStaysUsable() throws SQLException {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS sv_t (user_id BIGINT, v INT)",
        "INSERT INTO sv_t (user_id, v) VALUES (1, 1), (2, 2), (3, 3), (4, 4)");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class,
          () -> s.execute("SET @x\0@_@session.max_heap_table_size = 16777216"));
      assertEquals(1064, e.getErrorCode(), e.toString());
      assertEquals("42000", e.getSQLState());
      for (int round = 0; round < 3; round++) {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sv_t WHERE user_id IN (1, 2, 3, 4)")) {
          assertTrue(rs.next());
          assertEquals(4, rs.getInt(1));
        }
      }
      s.execute("SET @y = 5");
      try (ResultSet rs = s.executeQuery("SELECT v, @y FROM sv_t WHERE user_id = 3")) {
        assertTrue(rs.next());
        assertEquals(5, rs.getInt(2), "a good SET is replayed");
      }
      assertThrows(SQLException.class, () -> s.execute("SET @@session.no_such_variable = 1"));
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sv_t WHERE user_id IN (1, 2, 3, 4)")) {
        assertTrue(rs.next());
        assertEquals(4, rs.getInt(1), "a refused SET on pinned connections is not recorded either");
      }
    }
  }

  @Test
  void badSetInsideATransactionIsRefused() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertThrows(SQLException.class, () -> s.execute("SET @@session.no_such_variable = 1"));
      s.execute("SET @z = 7");
      try (ResultSet rs = s.executeQuery("SELECT @z")) {
        assertTrue(rs.next());
        assertEquals(7, rs.getInt(1));
      }
      c.rollback();
    }
  }
}
