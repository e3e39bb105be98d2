package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Derived tables and non-recursive CTEs that need a cross-shard merge of their own (issue 20, part
 * 3; research shapes T19, T20): each read first as a statement of its own, the statement run over
 * their rows as typed JSON_TABLEs; each compared with one plain MariaDB server holding the same rows
 * (labels, types, rows), with NULL groups, a case-insensitive collation, the cap and the refusals.
 */
class DerivedTableTest {
  static final List<String> DDL = List.of(
      "CREATE TABLE xd_users (id BIGINT PRIMARY KEY, name VARCHAR(64) COLLATE utf8mb4_general_ci, country CHAR(2)"
          + " COLLATE utf8mb4_general_ci, status VARCHAR(16)) COMMENT='shardex:sharded key=id'",
      "CREATE TABLE xd_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT NULL, total DECIMAL(12,2) NULL,"
          + " created_at DATETIME(3)) COMMENT='shardex:sharded key=seller_id'",
      "CREATE TABLE xd_countries (code CHAR(2) PRIMARY KEY, name VARCHAR(64)) COMMENT='shardex:global'");

  @RegisterExtension static final Oracle.Loader LOADER = new Oracle.Loader();
  static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    List<String> rows = new ArrayList<>();
    StringBuilder users = new StringBuilder("INSERT INTO xd_users VALUES ");
    for (int id = 1; id <= 30; id++) {
      String country = id % 7 == 0 ? "NULL" : id % 3 == 0 ? "'NL'" : "'BE'"; // one spelling each: a group shows it
      users.append(id == 1 ? "" : ", ").append("(").append(id).append(", 'user ").append(id).append("', ").append(country)
          .append(", '").append(id % 4 == 0 ? "vip" : "plain").append("')");
    }
    rows.add(users.toString());
    StringBuilder orders = new StringBuilder("INSERT INTO xd_orders VALUES ");
    for (int id = 1; id <= 200; id++) {
      String buyer = id % 17 == 0 ? "NULL" : id % 19 == 0 ? "999" : Integer.toString((id * 7) % 30 + 1);
      String total = id % 11 == 0 ? "NULL" : (id * 3) + "." + (id % 100);
      orders.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id % 8 + 1).append(", ").append(buyer)
          .append(", ").append(total).append(", '2026-01-01 00:00:00.123' + INTERVAL ").append(id).append(" MINUTE)");
    }
    rows.add(orders.toString());
    rows.add("INSERT INTO xd_countries VALUES ('NL', 'Netherlands'), ('BE', 'Belgium'), ('DE', 'Germany')");
    oracle = LOADER.load(List.of("xd_users", "xd_orders", "xd_countries"), DDL, rows);
  }

  static void same(String sql, boolean ordered, Object... args) throws SQLException {
    Oracle.same(oracle, sql, ordered, args);
  }

  @Test
  void t19_aggregatesOverACrossShardGroupBy_theNullBuyerIsOneGroup() throws SQLException {
    same("SELECT AVG(cnt), MAX(cnt), COUNT(*) FROM (SELECT buyer_id, COUNT(*) AS cnt FROM xd_orders GROUP BY buyer_id) t", false);
    same("SELECT t.buyer_id, t.cnt FROM (SELECT buyer_id, COUNT(*) AS cnt FROM xd_orders GROUP BY buyer_id) AS t"
        + " WHERE t.cnt > 6 ORDER BY t.cnt DESC, t.buyer_id", true);
  }

  @Test
  void t19_costsOneStatementPerShardAndOneOverTheRows() throws SQLException {
    String sql = "SELECT AVG(cnt), MAX(cnt), COUNT(*) FROM (SELECT buyer_id, COUNT(*) AS cnt FROM xd_orders GROUP BY buyer_id) t";
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.executeQuery(sql).close(); // the tables' columns are read once, on first use
      long[] before = TestCluster.statusAll("Com_select");
      try (ResultSet rs = s.executeQuery(sql)) {
        assertTrue(rs.next());
      }
      long[] after = TestCluster.statusAll("Com_select");
      long sent = 0;
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        sent += after[shard] - before[shard];
      }
      assertEquals(TestCluster.SHARDS + 1, sent, "the derived table on every shard, then the statement on one");
    }
  }

  @Test
  void nonRecursiveCte_groupedNotByTheKey() throws SQLException {
    same("WITH per_buyer AS (SELECT buyer_id, COUNT(*) AS cnt, SUM(total) AS spent FROM xd_orders GROUP BY buyer_id)"
        + " SELECT cnt, COUNT(*) AS buyers, SUM(spent) FROM per_buyer GROUP BY cnt ORDER BY cnt", true);
  }

  @Test
  void distinctAndLimitInside_andDecimalsDatesCarriedExactly() throws SQLException {
    same("SELECT COUNT(*), COUNT(buyer_id) FROM (SELECT DISTINCT buyer_id FROM xd_orders) d", false);
    same("SELECT SUM(total), MIN(created_at), MAX(created_at) FROM (SELECT total, created_at FROM xd_orders"
        + " ORDER BY created_at DESC LIMIT 10) t", false);
  }

  @Test
  void collationOfAPlainColumnKept_andJoinedToAGlobalTable() throws SQLException {
    same("SELECT country, n FROM (SELECT country, COUNT(*) AS n FROM xd_users GROUP BY country) c WHERE country = 'nl'", false);
    same("SELECT g.name, t.n FROM (SELECT country, COUNT(*) AS n FROM xd_users GROUP BY country) t"
        + " JOIN xd_countries g ON g.code = t.country ORDER BY g.name", true);
  }

  @Test
  void preparedParametersInsideAndOutside() throws SQLException {
    same("SELECT AVG(cnt), COUNT(*) FROM (SELECT buyer_id, COUNT(*) AS cnt FROM xd_orders WHERE total > ? GROUP BY buyer_id) t"
        + " WHERE cnt >= ?", false, 100, 2);
  }

  @Test
  void t20_cteThatLimits_joinedToAShardedTable() throws SQLException {
    same("WITH top AS (SELECT seller_id, SUM(total) AS s FROM xd_orders GROUP BY seller_id ORDER BY s DESC LIMIT 3)"
        + " SELECT u.name, top.s FROM top JOIN xd_users u ON u.id = top.seller_id ORDER BY top.s DESC", true);
  }

  @Test
  void explainRoute_showsEachDerivedTableAndTheStatementOverTheirRows() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT AVG(cnt) FROM (SELECT buyer_id, COUNT(*) AS cnt FROM xd_orders"
            + " GROUP BY buyer_id) t")) {
      StringBuilder plan = new StringBuilder();
      while (rs.next()) {
        plan.append(rs.getString("step")).append(' ').append(rs.getString("operator")).append(" | ").append(rs.getString("sql_sent"))
            .append('\n');
      }
      assertTrue(plan.toString().contains("Derive") && plan.toString().contains("LIMIT 100001")
          && plan.toString().contains("__shx_derived_0__"), plan.toString());
    }
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ANALYZE ROUTE SELECT AVG(cnt) FROM (SELECT buyer_id, COUNT(*) AS cnt FROM"
            + " xd_orders GROUP BY buyer_id) t")) {
      assertTrue(rs.next());
      assertTrue(rs.getString("operator").startsWith("Derive") && rs.getLong("round_trips") == TestCluster.SHARDS + 1,
          rs.getString("operator") + " " + rs.getString("round_trips"));
    }
  }

  @Test
  void overTheCap_refusedByNameNamingTheDerivedTable() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=5"); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT AVG(cnt) FROM (SELECT buyer_id,"
          + " COUNT(*) AS cnt FROM xd_orders GROUP BY buyer_id) t"));
      assertTrue(e.getMessage().contains("SHX1207") && e.getMessage().contains("derived table t"), e.getMessage());
    }
  }

  @Test
  void aComputedString_isRefusedByName() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT COUNT(*) FROM (SELECT CONCAT(country, '-')"
          + " AS g, COUNT(*) AS n FROM xd_users GROUP BY g) t"));
      assertTrue(e.getMessage().contains("SHX1207") && e.getMessage().contains("column g of derived table t"), e.getMessage());
    }
  }
}
