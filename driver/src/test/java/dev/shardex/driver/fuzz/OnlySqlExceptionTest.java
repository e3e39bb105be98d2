package dev.shardex.driver.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each input that once escaped the driver as something other than an SQLException (issue 10's
 * fuzz findings) now ends in a named SQLException with an SQLState, through the real driver.
 */
class OnlySqlExceptionTest {
  @BeforeAll
  static void table() throws SQLException {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS fz_t (user_id BIGINT, v INT, d DOUBLE, s VARCHAR(20))",
        "INSERT INTO fz_t (user_id, v, d, s) VALUES (1, 1, 1.5, 'a'), (2, 2, 2.5, 'b'), (3, 3, 3.5, 'c')");
  }

  private static SQLException plain(String sql) {
    SQLException e = assertThrows(SQLException.class, () -> {
      try (Connection c = TestCluster.connect("shardex.hints=true"); Statement s = c.createStatement()) {
        if (s.execute(sql)) {
          try (ResultSet rs = s.getResultSet()) {
            while (rs.next()) {
              rs.getObject(1);
            }
          }
        }
      }
    }, sql);
    assertNotNull(e.getSQLState(), sql + " -> " + e);
    assertTrue(e.getMessage() == null || !e.getMessage().startsWith("Shardex SHX1509"), "cause not fixed, only caught: " + e);
    return e;
  }

  @Test
  void deleteWithCommentForTable() {
    SQLException e = plain("DELETE FROM-- x WHERE user_id = 1");
    assertTrue(e.getSQLState().startsWith("42"), e.toString());
  }

  @Test
  void avgWithoutArgument() {
    assertEquals("42000", plain("SELECT AVG() FROM fz_t").getSQLState());
  }

  @Test
  void hugeAndMalformedNumbers() {
    plain("SELECT * FROM fz_t WHERE v = 1e-99999999999999999999999");
    plain("SELECT * FROM fz_t WHERE v = 1..");
    plain("SELECT * FROM fz_t LIMIT 18446744073709551616");
    plain("SELECT * FROM fz_t WHERE user_id = 1 LIMIT 18446744073709551616");
  }

  @Test
  void unclosedNestedComment() {
    plain("/*/* shardex:key=? */ SELECT * FROM fz_t");
  }

  @Test
  void deepNestingIsRefusedByName() {
    String sql = "SELECT " + "(".repeat(500) + "1" + ")".repeat(500) + " FROM fz_t";
    SQLException e = plain(sql);
    assertTrue(e.getMessage().startsWith("Shardex SHX1104:"), e.getMessage());
  }

  @Test
  void parameterIndexOutOfRange() throws SQLException {
    try (Connection c = TestCluster.connect(); PreparedStatement ps = c.prepareStatement("SELECT v FROM fz_t WHERE user_id = ?")) {
      SQLException e = assertThrows(SQLException.class, () -> ps.setObject(Integer.MAX_VALUE, 1));
      assertEquals("07009", e.getSQLState());
      assertTrue(e.getMessage().contains("out of range"), e.getMessage());
      assertThrows(SQLException.class, () -> ps.setInt(2, 1));
    }
  }

  @Test
  void infiniteParameter() throws SQLException {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("SELECT s, SUM(d) FROM fz_t GROUP BY s HAVING SUM(d) < ?")) {
      SQLException e = assertThrows(SQLException.class, () -> ps.setDouble(1, Double.POSITIVE_INFINITY));
      assertEquals("22003", e.getSQLState());
    }
  }

  @Test
  void placeholderInPlainOrderBy() {
    plain("SELECT v FROM fz_t ORDER BY ? DESC LIMIT 2");
    plain("SELECT v FROM fz_t ORDER BY ? DESC LIMIT 2 OFFSET 1");
  }

  @Test
  void unboundLimitParameter() throws SQLException {
    try (Connection c = TestCluster.connect(); PreparedStatement ps = c.prepareStatement("SELECT v FROM fz_t ORDER BY v DESC LIMIT ?")) {
      SQLException e = assertThrows(SQLException.class, ps::executeQuery);
      assertNotNull(e.getSQLState());
    }
  }
}
