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

/** Session replay, single-shard transactions, batches, generated keys and hints, on real shards. */
class SessionAndTransactionTest {
  static final long[] USERS = {20_001, 20_002, 20_003, 20_004, 20_005, 20_006, 20_007, 20_008};
  static int[] owner = new int[USERS.length];

  @BeforeAll
  static void schema() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS st_items ("
          + "id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, v INT)");
      for (long u : USERS) {
        s.executeUpdate("INSERT INTO st_items (user_id, v) VALUES (" + u + ", 0)");
      }
      var store = TestCluster.cluster(c).directory().store();
      for (int i = 0; i < USERS.length; i++) {
        owner[i] = store.lookup(KeySpace.DEFAULT, Long.toString(USERS[i])).shardId();
      }
    }
  }

  /** Two users on different shards. */
  static long[] onTwoShards() {
    for (int i = 1; i < USERS.length; i++) {
      if (owner[i] != owner[0]) {
        return new long[] {USERS[0], USERS[i]};
      }
    }
    throw new IllegalStateException("all test users on one shard");
  }

  @Test
  void setStatementsAreReplayedOnEveryShardTheConnectionUses() throws Exception {
    long[] two = onTwoShards();
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("SET @shardex_marker = 42");
      for (long u : two) {
        try (ResultSet rs = s.executeQuery("SELECT @shardex_marker, v FROM st_items WHERE user_id = " + u)) {
          assertTrue(rs.next());
          assertEquals(42, rs.getInt(1), "session variable on the shard of user " + u);
        }
      }
    }
    try (Connection other = TestCluster.connect(); Statement s = other.createStatement();
        ResultSet rs = s.executeQuery("SELECT @shardex_marker FROM st_items WHERE user_id = " + two[0])) {
      assertTrue(rs.next());
      assertEquals(null, rs.getObject(1), "another logical connection does not inherit the SET");
    }
  }

  @Test
  void aTransactionStaysOnOneShardAndRefusesASecond() throws Exception {
    long[] two = onTwoShards();
    int before0 = valueOf(two[0]);
    int before1 = valueOf(two[1]);
    try (Connection c = TestCluster.connect("shardex.transactions=single")) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE st_items SET v = 7 WHERE user_id = " + two[0]);
        SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE st_items SET v = 7 WHERE user_id = " + two[1]));
        assertTrue(ShardexError.SECOND_SHARD.is(e), e.getMessage());
        assertEquals("0AS00", e.getSQLState());
        c.rollback();
        assertEquals(before0, valueOf(two[0]), "rolled back");
        s.executeUpdate("UPDATE st_items SET v = 8 WHERE user_id = " + two[1]);
        assertEquals(before1, valueOf(two[1]), "not visible before commit");
        c.commit();
        assertEquals(8, valueOf(two[1]), "visible after commit");
      }
    }
  }

  @Test
  void savepointsRollBackPartOfAShardsTransaction() throws Exception {
    long user = USERS[4];
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      java.sql.Savepoint start = c.setSavepoint(); // before any statement: replayed when the shard is pinned
      s.executeUpdate("UPDATE st_items SET v = 41 WHERE user_id = " + user);
      java.sql.Savepoint middle = c.setSavepoint("middle");
      s.executeUpdate("UPDATE st_items SET v = 42 WHERE user_id = " + user);
      c.rollback(middle);
      c.commit();
      assertEquals(41, valueOf(user), "the work after the savepoint was undone, the rest committed");
      s.executeUpdate("UPDATE st_items SET v = 43 WHERE user_id = " + user);
      java.sql.Savepoint again = c.setSavepoint();
      s.executeUpdate("UPDATE st_items SET v = 44 WHERE user_id = " + user);
      c.rollback(again);
      c.rollback();
      assertEquals(41, valueOf(user));
      SQLException gone = assertThrows(SQLException.class, () -> c.rollback(start));
      assertEquals("3B001", gone.getSQLState(), "savepoints end with their transaction");
    }
  }

  @Test
  void beginAndCommitStatementsWork() throws Exception {
    int before = valueOf(USERS[2]);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("BEGIN");
      s.executeUpdate("UPDATE st_items SET v = 3 WHERE user_id = " + USERS[2]);
      s.execute("ROLLBACK");
      assertEquals(before, valueOf(USERS[2]));
      assertTrue(c.getAutoCommit(), "autocommit again after ROLLBACK");
      s.execute("START TRANSACTION");
      s.executeUpdate("UPDATE st_items SET v = 4 WHERE user_id = " + USERS[2]);
      s.execute("COMMIT");
      assertEquals(4, valueOf(USERS[2]));
    }
  }

  @Test
  void batchesAreGroupedPerShardWithCountsInTheCallersOrder() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("UPDATE st_items SET v = v + ? WHERE user_id = ?")) {
      List<Long> order = new ArrayList<>();
      for (int i = USERS.length - 1; i >= 0; i--) {
        ps.setInt(1, 100);
        ps.setLong(2, USERS[i]);
        ps.addBatch();
        order.add(USERS[i]);
      }
      ps.setInt(1, 100);
      ps.setLong(2, 99_999_999L);
      ps.addBatch();
      int[] counts = ps.executeBatch();
      int[] expected = new int[USERS.length + 1];
      java.util.Arrays.fill(expected, 1);
      expected[USERS.length] = 0;
      assertArrayEquals(expected, counts);
    }
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.addBatch("INSERT INTO st_items (user_id, v) VALUES (" + USERS[0] + ", 500)");
      s.addBatch("INSERT INTO st_items (user_id, v) VALUES (" + USERS[1] + ", 500), (" + USERS[1] + ", 501)");
      s.addBatch("DELETE FROM st_items WHERE user_id = " + USERS[0] + " AND v = 500");
      assertArrayEquals(new int[] {1, 2, 1}, s.executeBatch());
    }
  }

  @Test
  void generatedKeysPassThrough() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO st_items (user_id, v) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
      ps.setLong(1, USERS[3]);
      ps.setInt(2, 9);
      assertEquals(1, ps.executeUpdate());
      long id;
      try (ResultSet keys = ps.getGeneratedKeys()) {
        assertTrue(keys.next());
        id = keys.getLong(1);
      }
      int shard = owner[3];
      assertEquals(List.of(Long.toString(USERS[3])), TestCluster.onShard(shard, "SELECT user_id FROM st_items WHERE id = " + id));
    }
  }

  @Test
  void hintsRouteOnlyWhenEnabled() throws Exception {
    int target = (owner[0] + 1) % TestCluster.SHARDS;
    try (Connection c = TestCluster.connect("shardex.hints=true&shardex.instance=hints"); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("/* shardex:shard=" + target + " */ SELECT COUNT(*) FROM st_items WHERE user_id = " + USERS[0])) {
      rs.next();
      assertEquals(0, rs.getInt(1), "sent to shard " + target + ", which does not hold the user");
    }
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("/* shardex:shard=" + target + " */ SELECT COUNT(*) FROM st_items WHERE user_id = " + USERS[0])) {
      rs.next();
      assertTrue(rs.getInt(1) >= 1, "hint ignored without shardex.hints=true");
    }
  }

  static int valueOf(long user) throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v FROM st_items WHERE user_id = " + user + " ORDER BY id LIMIT 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
