package dev.shardex.driver.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
 * UNION and UNION ALL whose branches need different shards (research joins-research.md §7, T16-T18):
 * each branch runs as a statement of its own, and the rows are combined on one shard as typed
 * JSON_TABLEs (or concatenated), each compared with one plain MariaDB server holding the same rows:
 * labels, types and rows (in order where the ORDER BY is total). The data holds the traps: case and
 * accent variants and a trailing space under utf8mb4_general_ci, (id, NULL) next to (id, name),
 * one buyer's orders on several sellers' shards, NULL buyers and totals.
 */
class UnionTest {
  static final List<String> DDL = List.of(
      "CREATE TABLE xu_users (id BIGINT PRIMARY KEY, name VARCHAR(64) COLLATE utf8mb4_general_ci,"
          + " country CHAR(2) COLLATE utf8mb4_general_ci, status VARCHAR(16)) COMMENT='shardex:sharded key=id'",
      "CREATE TABLE xu_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT NULL,"
          + " total DECIMAL(12,2) NULL, coupon VARCHAR(20) COLLATE utf8mb4_general_ci NULL, created_at DATETIME(3))"
          + " COMMENT='shardex:sharded key=seller_id'",
      "CREATE TABLE xu_countries (code CHAR(2) COLLATE utf8mb4_general_ci PRIMARY KEY,"
          + " name VARCHAR(64) COLLATE utf8mb4_general_ci) COMMENT='shardex:global'");
  /** Coupons: each spelling of a group other than the users' own names appears in one spelling only (which one a UNION keeps is the first seen). */
  static final String[] COUPONS = {"ann", "ANN ", "BOB", "emile", "SAVE10", "save10 ", "sävé10", "zeta", null};

  @RegisterExtension static final Oracle.Loader LOADER = new Oracle.Loader();
  static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    List<String> rows = new ArrayList<>();
    StringBuilder users = new StringBuilder("INSERT INTO xu_users VALUES ");
    String[] names = {"Ann", "Bob", "Émile", "save10"};
    for (int id = 1; id <= 30; id++) {
      String name = id <= names.length ? names[id - 1] : "user " + id;
      users.append(id == 1 ? "" : ", ").append("(").append(id).append(", '").append(name).append("', '")
          .append(id % 3 == 0 ? "NL" : "BE").append("', '").append(id % 4 == 0 ? "vip" : "plain").append("')");
    }
    rows.add(users.toString());
    StringBuilder orders = new StringBuilder("INSERT INTO xu_orders VALUES ");
    for (int id = 1; id <= 200; id++) {
      String buyer = id % 13 == 0 ? "NULL" : Integer.toString((id * 7) % 30 + 1);
      String total = id % 11 == 0 ? "NULL" : (id * 5) + "." + (id % 100);
      String coupon = COUPONS[id % COUPONS.length];
      orders.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id % 6 + 1).append(", ").append(buyer)
          .append(", ").append(total).append(", ").append(coupon == null ? "NULL" : "'" + coupon + "'")
          .append(", '2026-01-01 00:00:00' + INTERVAL ").append(id * 7 % 200).append(" MINUTE)");
    }
    rows.add(orders.toString());
    rows.add("INSERT INTO xu_countries VALUES ('BE', 'Belgium'), ('NL', 'Netherlands'), ('FR', 'France')");
    oracle = LOADER.load(List.of("xu_users", "xu_orders", "xu_countries"), DDL, rows);
  }

  static void same(String sql, boolean ordered, Object... args) throws SQLException {
    Oracle.same(oracle, sql, ordered, args);
  }

  /** The operators of a statement's tree: "step name", e.g. "1.2 Route". */
  static List<String> tree(String sql) throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
      List<String> ops = new ArrayList<>();
      while (rs.next()) {
        ops.add(rs.getString("step") + " " + rs.getString("operator").replaceAll("[:(].*", ""));
      }
      return ops;
    }
  }

  @Test
  void t16_unionDistinctOfScatteredBranches_deDuplicatesAcrossShardsAndKeepsNullApart() throws SQLException {
    String t16 = "SELECT id, name FROM xu_users WHERE status = 'vip' UNION SELECT buyer_id, NULL FROM xu_orders WHERE total > 500";
    same(t16, false);
    same(t16 + " ORDER BY id DESC, name LIMIT 7 OFFSET 3", true);
    same("SELECT buyer_id FROM xu_orders WHERE total > ? UNION SELECT id FROM xu_users WHERE country = ?", false, 300, "NL");
    assertEquals(List.of("1 Union", "1.1 Route", "1.2 Route", "1.3 Route"), tree(t16));
  }

  @Test
  void unionDistinct_deDuplicatesUnderTheColumnsCollation() throws SQLException {
    // 'ann', 'ANN ' are 'Ann'; 'BOB' is 'Bob'; 'emile' is 'Émile'; 'SAVE10', 'save10 ', 'sävé10' are 'save10':
    // the first branch's spelling stays, as on one server
    same("SELECT name FROM xu_users WHERE id IN (1, 2, 3, 4) UNION SELECT coupon FROM xu_orders WHERE coupon IS NOT NULL", false);
    same("SELECT name FROM xu_users WHERE id < ? UNION ALL SELECT coupon FROM xu_orders WHERE seller_id = ?", false, 6, 2);
  }

  @Test
  void t17_eachBranchLimitsAfterItsOwnCrossShardMerge() throws SQLException {
    String t17 = "(SELECT id, created_at FROM xu_orders WHERE seller_id = ? ORDER BY created_at DESC LIMIT 10)"
        + " UNION ALL (SELECT id, created_at FROM xu_orders WHERE buyer_id = ? ORDER BY created_at DESC LIMIT 10)"
        + " ORDER BY created_at DESC";
    same(t17 + " LIMIT 10", true, 3, 8);
    same(t17 + ", id LIMIT 5 OFFSET 4", true, 1, 11);
    same(t17, true, 6, 20);
  }

  @Test
  void t18_aGlobalBranchRunsOnOneShard_notOncePerShard() throws SQLException {
    String t18 = "SELECT code, name FROM xu_countries UNION ALL SELECT country, name FROM xu_users WHERE id = ?";
    same(t18, false, 9);
    same("SELECT code, name FROM xu_countries UNION ALL SELECT country, name FROM xu_users WHERE id > ?", false, 20);
    // one type per column and nothing to order: the branches' rows are concatenated, no shard combines them
    assertEquals(List.of("1 Union", "1.1 Route", "1.2 Route"),
        tree("SELECT code, name FROM xu_countries UNION ALL SELECT country, name FROM xu_users WHERE id > 20"));
    // status is VARCHAR(16), not name's VARCHAR(64): the server derives the column's type
    same("SELECT code, name FROM xu_countries UNION ALL SELECT country, status FROM xu_users WHERE id IN (?, ?)", false, 3, 17);
    same("SELECT code FROM xu_countries UNION SELECT country FROM xu_users ORDER BY code", true);
  }

  @Test
  void literalsParametersCountsAndMinMax_keepTheirLabelsAndTypes() throws SQLException {
    same("SELECT id, ? AS src FROM xu_users WHERE status = ? UNION ALL SELECT buyer_id, ? FROM xu_orders"
        + " WHERE seller_id = ? AND total > ?", false, "u", "vip", "o", 2, 100);
    same("SELECT 'users' AS what, COUNT(*) AS n FROM xu_users UNION ALL SELECT 'orders', COUNT(*) FROM xu_orders"
        + " UNION ALL SELECT 'buyers', COUNT(DISTINCT buyer_id) FROM xu_orders", false);
    same("SELECT MAX(created_at) AS stamp FROM xu_orders WHERE seller_id = 1 UNION SELECT MIN(created_at) FROM xu_orders", false);
    same("SELECT seller_id, total FROM xu_orders WHERE buyer_id = 8 UNION SELECT 0, 1.5 UNION SELECT id, NULL FROM xu_users"
        + " WHERE id = 8 ORDER BY 1, 2", true);
    samePlain("SELECT id, 'user' AS kind FROM xu_users WHERE country = 'NL' UNION SELECT buyer_id, 'buyer'"
        + " FROM xu_orders WHERE total > 900 ORDER BY id, kind");
  }

  @Test
  void expressionsOfARowWiseBranch_areComputedAgainWhereTheRowsAreCombined() throws SQLException {
    same("SELECT id, UPPER(name) AS shout, CONCAT(country, '-', status) AS cs FROM xu_users WHERE id < ?"
        + " UNION SELECT buyer_id, coupon, COALESCE(total * 2, 0) FROM xu_orders WHERE seller_id = ?", false, 12, 3);
    same("(SELECT id, UPPER(name) AS shout FROM xu_users ORDER BY shout DESC LIMIT 5)"
        + " UNION ALL (SELECT buyer_id, LOWER(coupon) FROM xu_orders WHERE seller_id = 1 ORDER BY id LIMIT 3) ORDER BY 1, 2", true);
    // a literal in an unaliased expression: the label shows its text, as on one server
    samePlain("SELECT id, CONCAT(name, '!') FROM xu_users WHERE country = 'NL' UNION SELECT id, coupon FROM xu_orders"
        + " WHERE seller_id = 2 ORDER BY 1, 2");
  }

  @Test
  void windowFunctionsInBranches_keepTheServersTypes() throws SQLException {
    // partitioned by each branch's shard key (run per shard) and not (the branch is run whole by one server)
    same("SELECT id, ROW_NUMBER() OVER (PARTITION BY id ORDER BY name) AS rn, RANK() OVER (PARTITION BY id ORDER BY name) AS rk"
        + " FROM xu_users WHERE id < 8 UNION ALL SELECT buyer_id, ROW_NUMBER() OVER (PARTITION BY seller_id ORDER BY id),"
        + " DENSE_RANK() OVER (PARTITION BY seller_id ORDER BY total) FROM xu_orders WHERE total > 800 ORDER BY 1, 2, 3", true);
    same("SELECT id, NTILE(3) OVER (ORDER BY id) AS t, COUNT(*) OVER (PARTITION BY country) AS n FROM xu_users"
        + " UNION SELECT buyer_id, NTILE(2) OVER (ORDER BY id), COUNT(buyer_id) OVER () FROM xu_orders WHERE seller_id = 2"
        + " ORDER BY 1, 2, 3", true);
    same("SELECT id, MAX(total) OVER (PARTITION BY seller_id) AS top, LAG(created_at) OVER (PARTITION BY seller_id ORDER BY id) AS prev,"
        + " FIRST_VALUE(coupon) OVER (PARTITION BY seller_id ORDER BY id) AS first FROM xu_orders WHERE id < 40"
        + " UNION ALL SELECT id, NULL, NULL, name FROM xu_users WHERE id < 4 ORDER BY 1, 2, 3, 4", true);
    same("SELECT id, PERCENT_RANK() OVER (ORDER BY id) AS pr, CUME_DIST() OVER (ORDER BY id) AS cd FROM xu_users WHERE id < 9"
        + " UNION ALL SELECT seller_id, 0, 1 FROM xu_orders WHERE id = 5 ORDER BY 1, 2", true);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT id, SUM(total) OVER (PARTITION BY seller_id) FROM xu_orders UNION SELECT id, 0 FROM xu_users"));
      assertTrue(e.getMessage().contains("column 2 of branch 1 (SUM(total) OVER (PARTITION BY seller_id"), e.getMessage());
      assertTrue(e.getMessage().contains("whose exact type Shardex cannot tell"), e.getMessage());
      SQLException lag = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT id, LAG(total, 1, 0) OVER (ORDER BY id) FROM xu_orders UNION SELECT id, 0 FROM xu_users"));
      assertTrue(lag.getMessage().contains("whose exact type Shardex cannot tell"), lag.getMessage());
    }
  }

  @Test
  void aBranchWithoutATable_isNotRepeatedPerShard() throws SQLException {
    same("SELECT id FROM xu_users WHERE id < 6 UNION ALL SELECT 0", false);
    same("SELECT id FROM xu_users WHERE country = 'NL' UNION ALL SELECT NULL UNION ALL SELECT 0", false);
  }

  @Test
  void emptyBranches() throws SQLException {
    same("SELECT id, name FROM xu_users WHERE status = 'nobody' UNION SELECT buyer_id, coupon FROM xu_orders WHERE total > 900",
        false);
    try (Connection c = TestCluster.connect()) {
      String none = "SELECT id FROM xu_users WHERE status = 'nobody' UNION SELECT buyer_id FROM xu_orders WHERE total < 0";
      List<String> expected = Oracle.answer(oracle, none, false);
      assertEquals(1, expected.size(), "only the header");
      assertEquals(expected, Oracle.answer(c, none, false));
    }
  }

  @Test
  void aBranchPastTheCap_isRefusedByNameBeforeAnyRow() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.maxMergeRows=20"); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT id FROM xu_users WHERE id < 10 UNION SELECT buyer_id FROM xu_orders"));
      assertEquals("0AS00", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1207: UNION 'SELECT id FROM xu_users"), e.getMessage());
      assertTrue(e.getMessage().contains("its branch 2 has more than shardex.maxMergeRows (20 rows)"), e.getMessage());
      assertTrue(e.getMessage().contains("raise shardex.maxMergeRows"), e.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT id FROM xu_users WHERE id < 10 UNION SELECT buyer_id FROM xu_orders"
          + " WHERE seller_id = 1 AND id < 40")) {
        assertTrue(rs.next(), "within the cap it is answered");
      }
    }
  }

  @Test
  void whatCannotBeTypedExactly_isRefusedByName() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT seller_id, SUM(total) FROM xu_orders GROUP BY seller_id UNION SELECT id, 0 FROM xu_users"));
      assertEquals("0AS00", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1209: a UNION across shards ('SELECT seller_id, SUM(total) FROM xu_orders"),
          e.getMessage());
      assertTrue(e.getMessage().contains("column 2 of branch 1 (SUM(total)), whose exact type Shardex cannot tell"), e.getMessage());
      SQLException star = assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT * FROM xu_countries UNION SELECT country, name FROM xu_users"));
      assertTrue(star.getMessage().contains("SELECT * in branch 1"), star.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT 1")) {
        assertTrue(rs.next(), "the connection still works after a refusal");
      }
    }
  }

  @Test
  void insideATransaction_theBranchesAndTheCombiningShardAnswerAsInAutocommit() throws SQLException {
    String t16 = "SELECT id, name FROM xu_users WHERE status = 'vip' UNION SELECT buyer_id, NULL FROM xu_orders WHERE total > 500"
        + " ORDER BY id, name";
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement(); Statement o = oracle.createStatement()) {
      List<String> expected = rows(o.executeQuery(t16));
      c.setAutoCommit(false);
      try (ResultSet rs = s.executeQuery("SELECT name FROM xu_users WHERE id = 5")) {
        assertTrue(rs.next(), "the transaction has a shard");
      }
      assertEquals(expected, rows(s.executeQuery(t16)));
      assertEquals(expected, rows(s.executeQuery(t16)), "run again on the same pinned connections");
      c.commit();
    }
  }

  @Test
  void aUnionOnOneShard_staysOneStatement() throws SQLException {
    String one = "SELECT id, name FROM xu_users WHERE id = 5 UNION SELECT id, status FROM xu_users WHERE id = 5";
    same(one, false);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + one)) {
      assertTrue(rs.next());
      assertNotNull(rs.getObject("shard_id"), "sent as it is to the key's shard");
      assertTrue(rs.getString("sql_sent").contains("UNION"), rs.getString("sql_sent"));
      assertTrue(!rs.next(), "one statement, no Union node");
    }
  }

  @Test
  void explainRoute_showsTheUnionAndItsBranchSteps_andAnalyzeCountsThem() throws SQLException {
    String sql = "SELECT id, name FROM xu_users WHERE status = 'vip' UNION SELECT buyer_id, coupon FROM xu_orders WHERE seller_id = 2";
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      List<String> sent = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
        while (rs.next()) {
          sent.add(rs.getString("step") + " " + rs.getString("sql_sent") + " | " + rs.getString("operator"));
        }
      }
      assertEquals(4, sent.size(), sent.toString());
      assertTrue(sent.get(0).startsWith("1 null | Union(UNION): each branch a statement of its own"), sent.get(0));
      assertTrue(sent.get(1).startsWith("1.1 SELECT id, name FROM xu_users WHERE status = ? LIMIT 100001 |"), sent.get(1));
      assertTrue(sent.get(2).startsWith("1.2 SELECT buyer_id, coupon FROM xu_orders WHERE seller_id = ? LIMIT 100001 |"),
          sent.get(2));
      assertTrue(sent.get(3).startsWith("1.3 SELECT __shx_u0.c0 AS `id`, __shx_u0.c1 AS `name` FROM JSON_TABLE(?, '$[*]'"
          + " COLUMNS (__shx_n FOR ORDINALITY, c0 bigint(20) PATH '$[0]', c1 varchar(64) CHARACTER SET utf8mb4 COLLATE"
          + " utf8mb4_general_ci PATH '$[1]')) AS __shx_u0 UNION SELECT"), sent.get(3));
      List<String> analysed = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("EXPLAIN ANALYZE ROUTE " + sql)) {
        while (rs.next()) {
          analysed.add(rs.getString("step") + " rows=" + rs.getString("rows") + " trips=" + rs.getString("round_trips"));
        }
      }
      long expected = Oracle.answer(oracle, sql, false).size() - 1;
      assertEquals(4, analysed.size(), analysed.toString());
      assertTrue(analysed.get(0).startsWith("1 rows=" + expected + " trips=6"), analysed.toString());
      assertTrue(analysed.get(1).startsWith("1.1 ") && analysed.get(1).endsWith(" trips=4"), "users scattered over the 4 shards: " + analysed);
      assertTrue(analysed.get(2).startsWith("1.2 ") && analysed.get(2).endsWith(" trips=1"), "the seller's shard: " + analysed);
      assertTrue(analysed.get(3).startsWith("1.3 ") && analysed.get(3).endsWith(" trips=1"), "the union on one shard: " + analysed);
    }
  }

  /** A plain statement (its literals become the driver's values), compared with the oracle: labels and rows in order. */
  static void samePlain(String sql) throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement(); Statement o = oracle.createStatement()) {
      List<String> expected = rows(o.executeQuery(sql));
      assertTrue(!expected.isEmpty(), "the oracle returns rows for " + sql);
      assertEquals(expected, rows(s.executeQuery(sql)), sql);
    }
  }

  private static List<String> rows(ResultSet rs) throws SQLException {
    try (rs) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.append(rs.getMetaData().getColumnLabel(i)).append('=').append(rs.getString(i)).append('|');
        }
        out.add(row.toString());
      }
      return out;
    }
  }
}
