package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * EXPLAIN of a statement runs where the statement routes. ex_pk's key is its PRIMARY KEY, so the
 * shard holding a key's row plans a key lookup as {@code const}, and every other shard answers
 * "Impossible WHERE noticed after reading const tables" (type NULL): the plan shows which shard it
 * came from, besides its shard_id column.
 */
class ExplainTest {
  private static final long FIRST = 77_001;
  private static final int USERS = 40;

  @BeforeAll
  static void rows() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ex_pk (user_id BIGINT PRIMARY KEY, v VARCHAR(20))",
        "/* shardex:sharded key=user_id sequence=id */ CREATE TABLE IF NOT EXISTS ex_seq (id BIGINT NOT NULL PRIMARY KEY,"
            + " user_id BIGINT NOT NULL, v INT)",
        "/* shardex:sharded key=user_id sequence=user_id */ CREATE TABLE IF NOT EXISTS ex_seq_key (user_id BIGINT NOT NULL"
            + " PRIMARY KEY, v INT)");
    try (Connection c = TestCluster.connect(); PreparedStatement ps = c.prepareStatement(
        "INSERT INTO ex_pk (user_id, v) VALUES (?, 'old') ON DUPLICATE KEY UPDATE v = 'old'")) {
      for (long u = FIRST; u < FIRST + USERS; u++) {
        ps.setLong(1, u);
        ps.executeUpdate();
      }
    }
  }

  @Test
  void plainExplain_keyRead_isTheKeysShardsPlan() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      long user = userNotOn(c, 0);
      List<String[]> plan = rows(s.executeQuery("EXPLAIN SELECT v FROM ex_pk WHERE user_id = " + user));
      assertEquals(1, plan.size());
      assertEquals(Integer.toString(owner(c, user)), plan.get(0)[0], "shard_id");
      assertEquals("const", plan.get(0)[column(s, "type")], "the row's shard plans a key lookup");
    }
  }

  @Test
  void preparedExplain_withParameters_isTheKeysShardsPlan() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("EXPLAIN SELECT v FROM ex_pk WHERE user_id = ? AND v <> ?")) {
      long user = userNotOn(c, 0);
      ps.setLong(1, user);
      ps.setString(2, "x");
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals("shard_id", rs.getMetaData().getColumnLabel(1));
        assertTrue(rs.next());
        assertEquals(owner(c, user), rs.getInt("shard_id"));
        assertEquals("const", rs.getString("type"));
        assertTrue(!rs.next());
      }
    }
  }

  @Test
  void explainFormatJson_prepared_oneRowFromTheKeysShard() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("EXPLAIN FORMAT=JSON SELECT v FROM ex_pk WHERE user_id = ?")) {
      long user = userNotOn(c, 0);
      ps.setLong(1, user);
      List<String[]> plan = rows(ps.executeQuery());
      assertEquals(1, plan.size());
      assertEquals(Integer.toString(owner(c, user)), plan.get(0)[0]);
      assertTrue(plan.get(0)[1].contains("\"const\""), plan.get(0)[1]);
    }
  }

  @Test
  void scatterExplain_onePlanPerShard_labelled() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      assertEquals(List.of("0", "1", "2", "3"), shardIds(rows(s.executeQuery("EXPLAIN SELECT v FROM ex_pk WHERE v = 'x'"))));
      // a merged read explains the text the merge sends (here SUM and COUNT for AVG)
      assertEquals(List.of("0", "1", "2", "3"), shardIds(rows(s.executeQuery(
          "DESCRIBE SELECT v, AVG(user_id) FROM ex_pk GROUP BY v ORDER BY v LIMIT 2"))));
    }
  }

  @Test
  void explainOfAnInList_eachShardExplainsOnlyItsKeys() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      long a = userNotOn(c, -1);
      long b = userNotOn(c, owner(c, a));
      List<String[]> plan = rows(s.executeQuery("EXPLAIN SELECT v FROM ex_pk WHERE user_id IN (" + a + ", " + b + ")"));
      assertEquals(List.of(Integer.toString(Math.min(owner(c, a), owner(c, b))), Integer.toString(Math.max(owner(c, a),
          owner(c, b)))), shardIds(plan));
      for (String[] row : plan) {
        assertEquals("const", row[column(s, "type")], "one key per shard: a key lookup, not a range of two");
      }
    }
  }

  @Test
  void multiStatementText_eachExplainRunsWhereItsStatementRoutes() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      long a = userNotOn(c, -1);
      long b = userNotOn(c, owner(c, a));
      assertTrue(s.execute("EXPLAIN SELECT v FROM ex_pk WHERE user_id = " + a + "; EXPLAIN SELECT v FROM ex_pk WHERE user_id = " + b));
      assertEquals(List.of(Integer.toString(owner(c, a))), shardIds(rows(s.getResultSet())));
      assertTrue(s.getMoreResults());
      assertEquals(List.of(Integer.toString(owner(c, b))), shardIds(rows(s.getResultSet())));
    }
  }

  @Test
  void explainOfUpdateByKey_planFromTheKeysShard_rowUnchanged() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("EXPLAIN UPDATE ex_pk SET v = ? WHERE user_id = ?")) {
      long user = userNotOn(c, 0);
      ps.setString(1, "new");
      ps.setLong(2, user);
      List<String[]> plan = rows(ps.executeQuery());
      assertEquals(1, plan.size());
      assertEquals(Integer.toString(owner(c, user)), plan.get(0)[0]);
      assertEquals(List.of("old"), TestCluster.onShard(owner(c, user), "SELECT v FROM ex_pk WHERE user_id = " + user));
    }
  }

  @Test
  void explainOfInsertOfANewKey_placesNoKey_insertsNothing() throws Exception {
    long fresh = 7_790_001;
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        PreparedStatement ps = c.prepareStatement("EXPLAIN INSERT INTO ex_pk (user_id, v) VALUES (?, ?)")) {
      ps.setLong(1, fresh);
      ps.setString(2, "n");
      assertEquals(1, shardIds(rows(ps.executeQuery())).size());
      assertEquals(1, shardIds(rows(s.executeQuery("EXPLAIN INSERT INTO ex_pk (user_id, v) VALUES (" + (fresh + 1)
          + ", 'n')"))).size());
      assertNull(placement(c, fresh), "no key placed");
      assertNull(placement(c, fresh + 1), "no key placed");
    }
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertEquals(0, TestCluster.countOnShard(shard, "ex_pk", "user_id IN (" + fresh + ", " + (fresh + 1) + ")"));
    }
  }

  @Test
  void explainOfInsertOmittingASequenceColumn_takesNoId() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      long before = insertedId(s);
      rows(s.executeQuery("EXPLAIN INSERT INTO ex_seq (user_id, v) VALUES (" + FIRST + ", 1)"));
      assertEquals(before + 1, insertedId(s), "the EXPLAIN took no id from the block");
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("EXPLAIN INSERT INTO ex_seq_key (v) VALUES (1)"));
      assertTrue(e.getMessage().contains("SHX1209"), e.getMessage());
    }
  }

  @Test
  void analyzeForms_refusedByName_nothingRuns() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (String sql : List.of("ANALYZE UPDATE ex_pk SET v = 'a' WHERE user_id = " + FIRST,
          "EXPLAIN ANALYZE SELECT v FROM ex_pk WHERE user_id = " + FIRST)) {
        SQLException e = assertThrows(SQLException.class, () -> s.execute(sql));
        assertEquals("0AS00", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains("ANALYZE runs the statement"), e.getMessage());
      }
      assertEquals(List.of("old"), TestCluster.onShard(owner(c, FIRST), "SELECT v FROM ex_pk WHERE user_id = " + FIRST));
    }
  }

  @Test
  void describeOfATable_andExplainRoute_unchanged() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("DESCRIBE ex_pk")) {
        assertTrue(rs.next());
        assertEquals("user_id", rs.getString("Field"));
      }
      List<String[]> route = rows(s.executeQuery("EXPLAIN ROUTE SELECT v FROM ex_pk WHERE user_id = " + FIRST));
      assertEquals(List.of(Integer.toString(owner(c, FIRST))), shardIds(route));
      assertEquals("SELECT v FROM ex_pk WHERE user_id = " + FIRST, route.get(0)[1]);
    }
  }

  private static long insertedId(Statement s) throws SQLException {
    s.executeUpdate("INSERT INTO ex_seq (user_id, v) VALUES (" + FIRST + ", 0)", Statement.RETURN_GENERATED_KEYS);
    try (ResultSet keys = s.getGeneratedKeys()) {
      assertTrue(keys.next());
      return keys.getLong(1);
    }
  }

  /** A user of ex_pk whose row is not on the given shard. */
  private static long userNotOn(Connection c, int shard) throws SQLException {
    for (long u = FIRST; u < FIRST + USERS; u++) {
      if (owner(c, u) != shard) {
        return u;
      }
    }
    throw new AssertionError("every user is on shard " + shard);
  }

  private static int owner(Connection c, long user) throws SQLException {
    return placement(c, user).shardId();
  }

  private static Placement placement(Connection c, long user) throws SQLException {
    return TestCluster.cluster(c).directory().routeRead(KeySpace.DEFAULT, user);
  }

  private static int column(Statement s, String label) throws SQLException {
    try (ResultSet rs = s.executeQuery("EXPLAIN SELECT v FROM ex_pk WHERE user_id = " + FIRST)) {
      return rs.findColumn(label) - 1;
    }
  }

  private static List<String[]> rows(ResultSet rs) throws SQLException {
    try (rs) {
      List<String[]> out = new ArrayList<>();
      int n = rs.getMetaData().getColumnCount();
      assertEquals("shard_id", rs.getMetaData().getColumnLabel(1));
      while (rs.next()) {
        String[] row = new String[n];
        for (int i = 0; i < n; i++) {
          row[i] = rs.getString(i + 1);
        }
        out.add(row);
      }
      return out;
    }
  }

  private static List<String> shardIds(List<String[]> plan) {
    return plan.stream().map(r -> r[0]).toList();
  }
}
