package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every buffered step is fetched with LIMIT cap+1 (issue 20): a step that reads exactly
 * shardex.maxMergeRows rows is answered, as one server answers it, and one that reads one row more
 * is refused by name (0AS00) before any write. Each statement's buffered step reads 12 rows (12
 * orders, each of its own buyer, 12 users): at maxMergeRows=12 it is answered, at 11 refused.
 */
final class StepCapTest {
  private static final int ROWS = 12;
  private static final String PUSHED = "SELECT o.id, u.id FROM sc_orders o JOIN sc_users u ON o.code = u.name";
  @RegisterExtension static final Oracle.Loader LOADER = new Oracle.Loader();
  private static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    List<String> users = new ArrayList<>();
    List<String> orders = new ArrayList<>();
    for (int id = 1; id <= ROWS; id++) {
      users.add("(" + id + ", 'c" + id + "')");
      orders.add("(" + id + ", " + (id % 3 + 1) + ", " + id + ", 'c" + id + "')");
    }
    oracle = LOADER.load(List.of("sc_users", "sc_orders", "sc_copy"), List.of(
        "CREATE TABLE sc_users (id BIGINT PRIMARY KEY, name VARCHAR(20)) COMMENT='shardex:sharded key=id'",
        "CREATE TABLE sc_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT, code VARCHAR(20))"
            + " COMMENT='shardex:sharded key=seller_id'",
        "CREATE TABLE sc_copy (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL) COMMENT='shardex:sharded key=user_id'"),
        List.of("INSERT INTO sc_users VALUES " + String.join(", ", users),
            "INSERT INTO sc_orders VALUES " + String.join(", ", orders)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "LookupJoin driving;SHX1220;SELECT o.id, u.name FROM sc_orders o JOIN sc_users u ON o.buyer_id = u.id",
      "PushJoin sides;SHX1207;SELECT o.id, u.id FROM sc_orders o JOIN sc_users u ON o.code = u.name",
      "Materialize (pushed GROUP_CONCAT);SHX1207;SELECT GROUP_CONCAT(id ORDER BY id) FROM sc_orders",
      "Union branch;SHX1207;SELECT id FROM sc_orders UNION SELECT id FROM sc_users",
      "Derive part;SHX1207;SELECT COUNT(*), SUM(t.id) FROM (SELECT id FROM sc_orders ORDER BY id LIMIT 50) t",
      "PullOut EXISTS;SHX12;SELECT u.id FROM sc_users u WHERE EXISTS (SELECT 1 FROM sc_orders o WHERE o.buyer_id = u.id)"})
  void exactlyTheCap_isAnswered_oneMore_isRefusedByName(String step, String id, String sql) throws SQLException {
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=" + ROWS)) {
      List<String> expected = Oracle.answer(oracle, sql, false);
      assertEquals(expected, Oracle.answer(c, sql, false), step + ": " + sql);
    }
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=" + (ROWS - 1))) {
      SQLException e = assertThrows(SQLException.class, () -> Oracle.answer(c, sql, false), step);
      assertEquals("0AS00", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().startsWith("Shardex " + id) && e.getMessage().contains("shardex.maxMergeRows"), e.getMessage());
    }
  }

  @org.junit.jupiter.api.Test
  void explainAnalyze_showsEachBufferedStepsRowsAndBytes() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(
        "EXPLAIN ANALYZE ROUTE SELECT o.id, u.id FROM sc_orders o JOIN sc_users u ON o.code = u.name")) {
      int materialized = 0;
      while (rs.next()) {
        String op = rs.getString("operator");
        if (op.startsWith("Materialize")) {
          materialized++;
          assertEquals(ROWS, rs.getLong("rows"), op);
          // 12 rows of a BIGINT and a VARCHAR, e.g. (7, 'c7'): well over 12 * 64 bytes, under 12 * 400
          long bytes = rs.getLong("held_bytes");
          assertTrue(bytes > ROWS * 64 && bytes < ROWS * 400, op + ": " + bytes);
        } else if (op.startsWith("Route")) {
          rs.getLong("held_bytes");
          assertTrue(rs.wasNull(), op + " streams its rows: it holds none");
        }
      }
      assertEquals(2, materialized, "one per table");
    }
  }

  @ParameterizedTest(name = "maxMergeRows={0}")
  @CsvSource({"12, 12", "11, -1"})
  void insertSelect_exactlyTheCapIsWritten_oneMoreNothing(int cap, int written) throws SQLException {
    TestCluster.run("DELETE FROM sc_copy WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)");
    String sql = "INSERT INTO sc_copy (id, user_id) SELECT id, buyer_id FROM sc_orders";
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=" + cap); Statement s = c.createStatement()) {
      if (written >= 0) {
        assertEquals(written, s.executeUpdate(sql));
      } else {
        SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(sql));
        assertEquals("0AS00", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().startsWith("Shardex SHX1208") && e.getMessage().contains("has more than 11 rows"), e.getMessage());
      }
    }
    try (Connection c = TestCluster.connect()) {
      assertEquals(Math.max(written, 0) + 1, Oracle.answer(c, "SELECT id FROM sc_copy", false).size());
    }
  }

  // A buffered step across shards (Materialize: a push-down join's sides) asks its shards for their counts
  // first: past the cap it is refused before any of its rows is sent, and the connection goes on working.

  @org.junit.jupiter.api.Test
  void pastTheCap_theShardsSendTheirCountsOnly() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=" + (ROWS - 1)); Statement s = c.createStatement()) {
      Oracle.answer(c, "SELECT COUNT(*) FROM sc_orders", false); // every shard's pool is open
      long before = Arrays.stream(TestCluster.statusAll("Rows_sent")).sum();
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(PUSHED).close());
      long sent = Arrays.stream(TestCluster.statusAll("Rows_sent")).sum() - before - TestCluster.SHARDS; // the counters' own rows
      assertEquals("0AS00", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().startsWith("Shardex SHX1207") && e.getMessage().contains("more than 11 rows (shardex.maxMergeRows)"),
          e.getMessage());
      assertTrue(sent <= TestCluster.SHARDS, "one count a shard, no row of the step (12 of them): " + sent);
    }
  }

  @org.junit.jupiter.api.Test
  void afterTheRefusal_theSameConnectionAnswers_inAndOutOfATransaction() throws SQLException {
    String narrow = PUSHED + " WHERE o.id <= 5 AND u.id <= 5";
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=" + (ROWS - 1)); Statement s = c.createStatement()) {
      for (int round = 0; round < 2; round++) {
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(PUSHED).close());
        assertEquals("0AS00", e.getSQLState(), e.getMessage());
        assertEquals(Oracle.answer(oracle, narrow, false), Oracle.answer(c, narrow, false), "a join under the cap, next");
        assertEquals("c3|", Oracle.answer(c, "SELECT name FROM sc_users WHERE id = 3", false).get(1));
        assertEquals(Oracle.answer(oracle, "SELECT id, code FROM sc_orders", false),
            Oracle.answer(c, "SELECT id, code FROM sc_orders", false));
      }
      c.setAutoCommit(false);
      s.executeUpdate("UPDATE sc_users SET name = 'changed' WHERE id = 4");
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(PUSHED).close());
      assertEquals("0AS00", e.getSQLState(), e.getMessage());
      assertEquals("changed|", Oracle.answer(c, "SELECT name FROM sc_users WHERE id = 4", false).get(1), "the transaction goes on");
      c.rollback();
      c.setAutoCommit(true);
      assertEquals("c4|", Oracle.answer(c, "SELECT name FROM sc_users WHERE id = 4", false).get(1), "rolled back");
    }
  }
}
