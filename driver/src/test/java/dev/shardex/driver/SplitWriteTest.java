package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Multi-row INSERT / REPLACE split per owning shard: each shard gets only its own rows. */
class SplitWriteTest {
  static final long[] USERS = {70_001, 70_002, 70_003, 70_004, 70_005, 70_006};

  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS sw_rows ("
        + "user_id BIGINT NOT NULL, n INT NOT NULL, note VARCHAR(20), PRIMARY KEY (user_id, n))");
    for (long u : USERS) {
      TestCluster.run("INSERT INTO sw_rows (user_id, n) VALUES (" + u + ", 0)"); // places every user
    }
  }

  static int owner(long user) throws SQLException {
    try (Connection c = TestCluster.connect()) {
      return TestCluster.cluster(c).directory().store().lookup(KeySpace.DEFAULT, Long.toString(user)).shardId();
    }
  }

  static void assertRowsOnOwnerOnly(long user, int expected) throws SQLException {
    int owner = owner(user);
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertEquals(shard == owner ? expected : 0, TestCluster.countOnShard(shard, "sw_rows", "user_id = " + user),
          "rows of user " + user + " on shard " + shard + " (owner " + owner + ")");
    }
  }

  @Test
  void aPlainMultiRowInsertIsSplitByOwner() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      StringBuilder sql = new StringBuilder("INSERT INTO sw_rows (user_id, n, note) VALUES ");
      for (int i = 0; i < USERS.length; i++) {
        sql.append(i == 0 ? "" : ", ").append("(").append(USERS[i]).append(", 1, 'it''s, (one)')");
      }
      assertEquals(USERS.length, s.executeUpdate(sql.toString()));
      for (long u : USERS) {
        assertRowsOnOwnerOnly(u, 2);
      }
      try (ResultSet rs = s.executeQuery("SELECT note FROM sw_rows WHERE user_id = " + USERS[2] + " AND n = 1")) {
        rs.next();
        assertEquals("it's, (one)", rs.getString(1), "row text survives the split intact");
      }
    }
  }

  @Test
  void aPreparedMultiRowInsertBindsEachShardsOwnParameters() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO sw_rows (user_id, n, note) VALUES (?, 2, ?), (?, 2, ?), (?, 2, ?) "
            + "ON DUPLICATE KEY UPDATE note = VALUES(note)")) {
      for (int i = 0; i < 3; i++) {
        ps.setLong(2 * i + 1, USERS[i]);
        ps.setString(2 * i + 2, "p" + USERS[i]);
      }
      assertEquals(3, ps.executeUpdate());
      for (int i = 0; i < 3; i++) {
        assertEquals(List.of("p" + USERS[i]), TestCluster.onShard(owner(USERS[i]),
            "SELECT note FROM sw_rows WHERE user_id = " + USERS[i] + " AND n = 2"));
      }
    }
  }

  @Test
  void explainRouteShowsEachShardsShare() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE INSERT INTO sw_rows (user_id, n) VALUES (" + USERS[0] + ", 9), ("
            + USERS[1] + ", 9)")) {
      List<String> sent = new ArrayList<>();
      while (rs.next()) {
        sent.add(rs.getInt(1) + ": " + rs.getString(2));
      }
      assertTrue(owner(USERS[0]) != owner(USERS[1]), "least-loaded placement spread consecutive new users");
      {
        assertEquals(2, sent.size(), sent.toString());
        assertTrue(sent.stream().anyMatch(x -> x.endsWith("VALUES (" + USERS[0] + ", 9)")), sent.toString());
        assertTrue(sent.stream().anyMatch(x -> x.endsWith("VALUES (" + USERS[1] + ", 9)")), sent.toString());
      }
    }
  }

  @Test
  void aBatchOfSplitInsertsCountsEachEntrysRows() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO sw_rows (user_id, n) VALUES (?, ?), (?, ?)")) {
      ps.setLong(1, USERS[0]);
      ps.setInt(2, 3);
      ps.setLong(3, USERS[1]);
      ps.setInt(4, 3);
      ps.addBatch();
      ps.setLong(1, USERS[2]);
      ps.setInt(2, 3);
      ps.setLong(3, USERS[2]);
      ps.setInt(4, 4);
      ps.addBatch();
      assertArrayEquals(new int[] {2, 2}, ps.executeBatch());
    }
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertEquals(shard == owner(USERS[2]) ? 2 : 0,
          TestCluster.countOnShard(shard, "sw_rows", "user_id = " + USERS[2] + " AND n IN (3, 4)"));
      assertEquals(shard == owner(USERS[1]) ? 1 : 0,
          TestCluster.countOnShard(shard, "sw_rows", "user_id = " + USERS[1] + " AND n = 3"));
    }
  }

  @Test
  void insideATransactionASplitIsRefusedBeforeAnythingRuns() throws Exception {
    long a = USERS[3];
    long b = -1;
    for (long u : USERS) {
      if (owner(u) != owner(a)) {
        b = u;
      }
    }
    assertTrue(b > 0, "two users on different shards");
    try (Connection c = TestCluster.connect("shardex.transactions=single"); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      long other = b;
      SQLException e = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO sw_rows (user_id, n) VALUES (" + a + ", 5), (" + other + ", 5)"));
      assertTrue(ShardexError.SECOND_SHARD.is(e), e.getMessage());
      c.rollback();
    }
    assertEquals(0, TestCluster.countOnShard(owner(a), "sw_rows", "user_id = " + a + " AND n = 5"));
  }

  @Test
  void aKeyInListIsSplitSoEachShardGetsOnlyItsKeys() throws Exception {
    long a = USERS[0];
    long b = USERS[1];
    assertTrue(owner(a) != owner(b));
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      List<String> sent = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT n FROM sw_rows WHERE user_id IN (" + a + ", " + b + ") AND n >= 0")) {
        while (rs.next()) {
          sent.add(rs.getInt(1) + ": " + rs.getString(2));
        }
      }
      assertEquals(List.of(owner(a) + ": SELECT n FROM sw_rows WHERE user_id IN (" + a + ") AND n >= 0",
          owner(b) + ": SELECT n FROM sw_rows WHERE user_id IN (" + b + ") AND n >= 0").stream().sorted().toList(),
          sent.stream().sorted().toList());
      try (PreparedStatement ps = c.prepareStatement("UPDATE sw_rows SET note = ? WHERE user_id IN (?, ?) AND n = ?")) {
        ps.setString(1, "in-split");
        ps.setLong(2, a);
        ps.setLong(3, b);
        ps.setInt(4, 0);
        assertEquals(2, ps.executeUpdate(), "one row per user, each updated on its own shard");
      }
      assertEquals(List.of("in-split"), TestCluster.onShard(owner(a), "SELECT note FROM sw_rows WHERE user_id = " + a + " AND n = 0"));
      assertEquals(List.of("in-split"), TestCluster.onShard(owner(b), "SELECT note FROM sw_rows WHERE user_id = " + b + " AND n = 0"));
    }
  }
}
