package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * INSERT ... SELECT (issue 20, part 5), each compared with one plain MariaDB server holding the
 * same rows: run whole on one shard when the rows stay on the key's shard, else read first and
 * inserted by key in one transaction; every row on the shard that owns its key, the cap refused
 * before anything is written, a rollback undoing the whole statement, LAST_INSERT_ID() and the
 * update count as one server gives them.
 */
class InsertSelectTest {
  static final List<String> DDL = List.of(
      "CREATE TABLE xi_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT NULL, total DECIMAL(12,2) NULL,"
          + " created_at DATETIME(3)) COMMENT='shardex:sharded key=seller_id'",
      "CREATE TABLE xi_posts (user_id BIGINT NOT NULL, post_id BIGINT NOT NULL, title VARCHAR(64), body TEXT,"
          + " created_at DATETIME, PRIMARY KEY (user_id, post_id)) COMMENT='shardex:sharded key=user_id'",
      "CREATE TABLE xi_spend (buyer_id BIGINT NOT NULL, seller_id BIGINT NOT NULL, total DECIMAL(14,2),"
          + " PRIMARY KEY (buyer_id, seller_id)) COMMENT='shardex:sharded key=buyer_id'",
      "CREATE TABLE xi_events (id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, kind VARCHAR(20))"
          + " COMMENT='shardex:sharded key=user_id'",
      "CREATE TABLE xi_tags (name VARCHAR(20) PRIMARY KEY, owner_id BIGINT NOT NULL)"
          + " COMMENT='shardex:sharded key=owner_id lookup=name unique'");
  static final List<String> TABLES = List.of("xi_orders", "xi_posts", "xi_spend", "xi_events", "xi_tags");

  @RegisterExtension static final Oracle.Loader LOADER = new Oracle.Loader();
  static Connection oracle;

  @BeforeAll
  static void tables() throws SQLException {
    oracle = LOADER.load(TABLES, DDL, List.of());
  }

  @BeforeEach
  void rows() throws SQLException {
    List<String> load = new ArrayList<>();
    for (String t : TABLES) {
      load.add("DELETE FROM " + t);
    }
    StringBuilder orders = new StringBuilder("INSERT INTO xi_orders VALUES ");
    for (int id = 1; id <= 60; id++) {
      String buyer = id % 13 == 0 ? "NULL" : Integer.toString((id * 7) % 20 + 1);
      orders.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id % 6 + 1).append(", ").append(buyer)
          .append(", ").append(id % 11 == 0 ? "NULL" : (id * 3) + "." + (id % 100)).append(", '2026-01-01 00:00:00' + INTERVAL ")
          .append(id).append(" MINUTE)");
    }
    load.add(orders.toString());
    load.add("INSERT INTO xi_posts VALUES (1, 1, 'a', 'x', '2026-01-01'), (1, 2, 'b', NULL, '2026-01-02'), (2, 1, 'c', 'y', NULL)");
    try (Statement o = oracle.createStatement()) {
      for (String sql : load) {
        o.execute(sql);
      }
    }
    try (Connection c = TestCluster.connect("shardex.scatterWrites=allow"); Statement s = c.createStatement()) {
      for (String sql : load) {
        s.execute(sql); // (a DELETE without the key needs scatterWrites; it keeps the lookup entries too)
      }
    }
  }

  /** Runs the statement on both (prepared, with args), compares the update counts, then the table's rows. */
  static void same(String sql, String table, Object... args) throws SQLException {
    try (Connection c = TestCluster.connect()) {
      assertEquals(update(oracle, sql, args), update(c, sql, args), "update count of " + sql);
      assertEquals(Oracle.answer(oracle, "SELECT * FROM " + table, false), Oracle.answer(c, "SELECT * FROM " + table, false),
          "rows of " + table + " after " + sql);
    }
  }

  static long update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      return ps.executeLargeUpdate();
    }
  }

  /** The shard EXPLAIN ROUTE gives for the key, and that every row of the key is there and nowhere else. */
  static void onItsShard(String table, String keyColumn, long key) throws SQLException {
    List<Integer> route = shards("SELECT * FROM " + table + " WHERE " + keyColumn + " = " + key);
    assertEquals(1, route.size(), "one shard owns key " + key);
    int owner = route.get(0);
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      long rows = TestCluster.countOnShard(shard, table, keyColumn + " = " + key);
      assertTrue(shard == owner ? rows > 0 : rows == 0, table + " rows of key " + key + " on shard " + shard + ": " + rows);
    }
  }

  /** The shards EXPLAIN ROUTE sends the statement to. */
  static List<Integer> shards(String sql) throws SQLException {
    List<Integer> out = new ArrayList<>();
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
      while (rs.next()) {
        if (rs.getString("sql_sent") != null) {
          out.add(rs.getInt("shard_id"));
        }
      }
    }
    return out;
  }

  static String route(String sql) throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
      StringBuilder out = new StringBuilder();
      while (rs.next()) {
        out.append(rs.getString("operator")).append(" | ").append(rs.getString("shard_id")).append(" | ").append(rs.getString("sql_sent"))
            .append('\n');
      }
      return out.toString();
    }
  }

  @Test
  void withinOneKey_runsWholeOnItsShard() throws SQLException {
    String sql = "INSERT INTO xi_posts (user_id, post_id, title, body, created_at) SELECT user_id, post_id + 100, title, body,"
        + " created_at FROM xi_posts WHERE user_id = ?";
    String plan = route(sql.replace("?", "1"));
    assertTrue(!plan.contains("InsertRows") && plan.contains("INSERT INTO xi_posts"), plan);
    long[] before = TestCluster.statusAll("Com_insert_select");
    same(sql, "xi_posts", 1);
    long[] after = TestCluster.statusAll("Com_insert_select");
    int owner = shards("SELECT * FROM xi_posts WHERE user_id = 1").get(0);
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertEquals(shard == owner ? 1 : 0, after[shard] - before[shard], "INSERT ... SELECT statements on shard " + shard);
    }
    onItsShard("xi_posts", "user_id", 1);
  }

  @Test
  void acrossShards_readFirstThenInsertedByKey() throws SQLException {
    String sql = "INSERT INTO xi_spend (buyer_id, seller_id, total) SELECT buyer_id, seller_id, SUM(total) FROM xi_orders"
        + " WHERE buyer_id IS NOT NULL GROUP BY buyer_id, seller_id";
    String plan = route(sql);
    assertTrue(plan.contains("InsertRows") && plan.contains("VALUES (?, ...)"), plan);
    same(sql, "xi_spend");
    for (long buyer = 1; buyer <= 20; buyer++) {
      onItsShard("xi_spend", "buyer_id", buyer);
    }
  }

  @Test
  void preparedWithAParameterAndALimit() throws SQLException {
    same("INSERT INTO xi_spend (buyer_id, seller_id, total) SELECT buyer_id, seller_id, total FROM xi_orders"
        + " WHERE total > ? AND buyer_id IS NOT NULL ORDER BY total DESC LIMIT 5", "xi_spend", 100);
  }

  @Test
  void insertIgnoreAndOnDuplicateKeyUpdate_asOneServer() throws SQLException {
    same("INSERT INTO xi_spend (buyer_id, seller_id, total) SELECT buyer_id, seller_id, total FROM xi_orders WHERE id <= 10"
        + " AND buyer_id IS NOT NULL", "xi_spend");
    same("INSERT IGNORE INTO xi_spend (buyer_id, seller_id, total) SELECT buyer_id, seller_id, total FROM xi_orders"
        + " WHERE buyer_id IS NOT NULL", "xi_spend");
    same("INSERT INTO xi_spend (buyer_id, seller_id, total) SELECT buyer_id, seller_id, total FROM xi_orders WHERE buyer_id"
        + " IS NOT NULL ON DUPLICATE KEY UPDATE total = xi_spend.total + VALUES(total)", "xi_spend");
  }

  @Test
  void onDuplicateKeyUpdateReadingTheSource_isRefusedByName() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO xi_spend (buyer_id, seller_id, total)"
          + " SELECT buyer_id, seller_id, total FROM xi_orders WHERE buyer_id IS NOT NULL ON DUPLICATE KEY UPDATE total = created_at"));
      assertTrue(e.getMessage().contains("SHX1208") && e.getMessage().contains("created_at"), e.getMessage());
    }
    assertEquals(0, countAll("xi_spend"));
  }

  @Test
  void overTheCap_refusedBeforeAnyWrite() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=10"); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO xi_spend (buyer_id, seller_id, total)"
          + " SELECT buyer_id, seller_id, total FROM xi_orders WHERE buyer_id IS NOT NULL"));
      assertTrue(e.getMessage().contains("SHX1208") && e.getMessage().contains("has more than 10 rows"), e.getMessage());
      assertEquals("0AS00", e.getSQLState());
    }
    assertEquals(0, countAll("xi_spend"));
  }

  @Test
  void inATransaction_aRollbackUndoesEveryShard() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      long n = s.executeUpdate("INSERT INTO xi_spend (buyer_id, seller_id, total) SELECT buyer_id, seller_id, total FROM xi_orders"
          + " WHERE id <= 20 AND buyer_id IS NOT NULL");
      assertTrue(n > 4, "rows inserted: " + n);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM xi_spend")) {
        rs.next();
        assertEquals(n, rs.getLong(1), "the transaction sees its rows");
      }
      c.rollback();
    }
    assertEquals(0, countAll("xi_spend"));
  }

  @Test
  void inAutocommit_aFailingShardLeavesNothingWritten() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO xi_spend (buyer_id, seller_id, total) VALUES (8, 2, 1)"); // collides with order 1's row
      SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO xi_spend (buyer_id, seller_id, total)"
          + " SELECT buyer_id, seller_id, total FROM xi_orders WHERE buyer_id IS NOT NULL"));
      assertEquals("23000", e.getSQLState(), e.getMessage());
    }
    assertEquals(1, countAll("xi_spend"), "only the row inserted before");
  }

  @Test
  void aFailingStatementInATransaction_isUndoneAlone() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO xi_spend (buyer_id, seller_id, total) VALUES (8, 2, 1), (3, 4, 2)");
      assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO xi_spend (buyer_id, seller_id, total)"
          + " SELECT buyer_id, seller_id, total FROM xi_orders WHERE buyer_id IS NOT NULL"));
      c.commit();
    }
    assertEquals(2, countAll("xi_spend"), "the transaction's earlier rows, and none of the failed statement's");
  }

  @Test
  void sequenceFilledIds_andLastInsertIdIsTheFirst() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      long n = s.executeUpdate("INSERT INTO xi_events (user_id, kind) SELECT buyer_id, 'bought' FROM xi_orders"
          + " WHERE buyer_id IS NOT NULL ORDER BY id");
      assertEquals(countAll("xi_orders") - 4, n);
      long first;
      try (ResultSet rs = s.executeQuery("SELECT LAST_INSERT_ID()")) {
        rs.next();
        first = rs.getLong(1);
      }
      try (ResultSet rs = s.executeQuery("SELECT MIN(id), COUNT(DISTINCT id) FROM xi_events")) {
        rs.next();
        assertEquals(first, rs.getLong(1), "LAST_INSERT_ID() is the statement's first id");
        assertEquals(n, rs.getLong(2), "every row got its own id");
      }
    }
    for (long user = 1; user <= 20; user++) {
      onItsShard("xi_events", "user_id", user);
    }
  }

  @Test
  void lookupIndexesKept() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      assertEquals(6, s.executeUpdate("INSERT INTO xi_tags (name, owner_id) SELECT CONCAT('seller-', seller_id), seller_id"
          + " FROM xi_orders GROUP BY seller_id"));
      try (ResultSet rs = s.executeQuery("SELECT owner_id FROM xi_tags WHERE name = 'seller-5'")) {
        assertTrue(rs.next());
        assertEquals(5, rs.getLong(1), "found through the lookup entry");
      }
      assertEquals(shards("SELECT owner_id FROM xi_tags WHERE owner_id = 5"), shards("SELECT owner_id FROM xi_tags WHERE name = 'seller-5'"),
          "routed by the lookup entry to the key's shard alone");
    }
    onItsShard("xi_tags", "owner_id", 5);
  }

  @Test
  void inAJdbcBatch_readFirstIsRefusedByName() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.addBatch("INSERT INTO xi_spend (buyer_id, seller_id, total) VALUES (1, 1, 1)");
      s.addBatch("INSERT INTO xi_spend (buyer_id, seller_id, total) SELECT buyer_id, seller_id, total FROM xi_orders WHERE id = 2");
      SQLException e = assertThrows(SQLException.class, s::executeBatch);
      assertTrue(e.getMessage().contains("SHX1209") && e.getMessage().contains("INSERT ... SELECT"), e.getMessage());
    }
    assertEquals(0, countAll("xi_spend"), "nothing of the batch ran");
  }

  static long countAll(String table) throws SQLException {
    long n = 0;
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      n += TestCluster.countOnShard(shard, table, null);
    }
    return n;
  }
}
