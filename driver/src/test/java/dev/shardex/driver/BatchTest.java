package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.ShardexError;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JDBC batches over several shards, run by the plan's runner: one physical batch per shard, the
 * counts in the caller's order, a failed entry as one server's batch reports it, a GLOBAL table's
 * copies counted once, and a batch the transaction mode refuses refused before any shard runs.
 */
class BatchTest {
  private static final long[] USERS = {82001, 82002, 82003, 82004, 82005, 82006, 82007, 82008};

  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS bt_rows (user_id BIGINT PRIMARY KEY, n INT)",
        "/* shardex:global */ CREATE TABLE IF NOT EXISTS bt_global (code INT PRIMARY KEY, name VARCHAR(20))",
        "/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS bt_single (user_id BIGINT PRIMARY KEY)",
        "INSERT INTO bt_rows (user_id, n) VALUES (82003, 0)");
  }

  /**
   * A plain batch's share of a shard goes as one Connector/J batch, which with allowMultiQueries (on
   * for shard connections) is one multi-statement text: the server stops at the failed entry, so on
   * that shard the entries after it did not run; the other shards ran all theirs and count 1 each.
   * The failed shard's counts are Connector/J's, which misnumber a multi-statement batch's failure
   * (the duplicate entry has been seen to count -1): a known defect, not asserted here.
   */
  @Test
  void aPlainBatchGoesOnePhysicalBatchPerShardAndStopsOnlyTheShardThatFailed() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      var metrics = TestCluster.cluster(c).metrics();
      for (long u : USERS) {
        s.addBatch("INSERT INTO bt_rows (user_id, n) VALUES (" + u + ", 9)"); // 82003 is there already
      }
      long before = metrics.roundTrips();
      BatchUpdateException e = assertThrows(BatchUpdateException.class, s::executeLargeBatch);
      long trips = metrics.roundTrips() - before;
      long[] counts = e.getLargeUpdateCounts();
      assertEquals(USERS.length, counts.length);
      assertEquals("23000", e.getSQLState());
      assertTrue(e.getMessage().contains("Duplicate entry '82003'"), e.getMessage());
      assertEquals(shardsOf(c, USERS).size(), trips, "one JDBC batch per shard");
      int failedShard = shardOf(c, 82003);
      for (int i = 0; i < USERS.length; i++) {
        long u = USERS[i];
        int shard = shardOf(c, u);
        List<String> n = TestCluster.onShard(shard, "SELECT n FROM bt_rows WHERE user_id = " + u);
        String entry = "entry " + i + " (user " + u + ", shard " + shard + "): " + Arrays.toString(counts);
        if (u == 82003) {
          assertEquals(List.of("0"), n, "the duplicate changed nothing");
        } else if (shard != failedShard) {
          assertEquals(1, counts[i], entry);
          assertEquals(List.of("9"), n, entry);
        } else if (u < 82003) { // before the duplicate in its shard's share: ran
          assertEquals(List.of("9"), n, entry);
        } else { // after it: the server stopped at the duplicate
          assertEquals(List.of(), n, entry);
        }
      }
    }
  }

  @Test
  void aPreparedBatchGivesEachEntrysCountInTheCallersOrder() throws Exception {
    TestCluster.run("INSERT IGNORE INTO bt_rows (user_id, n) VALUES (82011, 0), (82012, 0), (82013, 0), (82014, 0),"
        + " (82015, 0), (82016, 0), (82017, 1000), (82018, 1000)");
    long[] users = {82011, 82017, 82012, 82013, 82014, 82018, 82015, 82016}; // 82017 and 82018: n too large to match
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("UPDATE bt_rows SET n = n + ? WHERE user_id = ? AND n < 100")) {
      var metrics = TestCluster.cluster(c).metrics();
      for (int i = 0; i < users.length; i++) {
        ps.setInt(1, i + 1);
        ps.setLong(2, users[i]);
        ps.addBatch();
      }
      long before = metrics.roundTrips();
      int[] counts = ps.executeBatch();
      long trips = metrics.roundTrips() - before;
      assertArrayEquals(new int[] {1, 0, 1, 1, 1, 0, 1, 1}, counts);
      assertEquals(shardsOf(c, users).size(), trips, "one JDBC batch per shard");
      for (int i = 0; i < users.length; i++) {
        if (counts[i] == 1) {
          assertEquals(List.of(Integer.toString(i + 1)),
              TestCluster.onShard(shardOf(c, users[i]), "SELECT n FROM bt_rows WHERE user_id = " + users[i]));
        }
      }
    }
  }

  @Test
  void aGlobalTableBatchCountsEachEntryOnceAndWritesEveryCopy() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO bt_global (code, name) VALUES (?, ?)")) {
      for (int code = 1; code <= 3; code++) {
        ps.setInt(1, code);
        ps.setString(2, "c" + code);
        ps.addBatch();
      }
      assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
    }
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertEquals(3, TestCluster.countOnShard(shard, "bt_global", "code BETWEEN 1 AND 3"), "shard " + shard);
    }
  }

  @Test
  void aBatchOverTwoShardsInASingleShardTransactionIsRefusedBeforeAnyShardRuns() throws Exception {
    long[] users = twoShards();
    try (Connection c = TestCluster.connect("shardex.transactions=single"); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (long u : users) {
        s.addBatch("INSERT INTO bt_single (user_id) VALUES (" + u + ")");
      }
      SQLException e = assertThrows(SQLException.class, s::executeBatch);
      assertTrue(ShardexError.SECOND_SHARD.is(e), e.getMessage());
      c.rollback();
    }
    try (Connection c = TestCluster.connect()) {
      for (long u : users) {
        assertEquals(0, TestCluster.countOnShard(shardOf(c, u), "bt_single", "user_id = " + u), "user " + u);
      }
    }
  }

  /** Two users of bt_rows (placed by the plain-batch test's set-up) that live on different shards. */
  private static long[] twoShards() throws Exception {
    TestCluster.run("INSERT IGNORE INTO bt_rows (user_id, n) VALUES (82021, 0), (82022, 0), (82023, 0), (82024, 0),"
        + " (82025, 0), (82026, 0)");
    try (Connection c = TestCluster.connect()) {
      long first = 82021;
      for (long u = 82022; u <= 82026; u++) {
        if (shardOf(c, u) != shardOf(c, first)) {
          return new long[] {first, u};
        }
      }
    }
    throw new AssertionError("users 82021..82026 all on one shard");
  }

  private static TreeSet<Integer> shardsOf(Connection c, long[] users) throws Exception {
    TreeSet<Integer> shards = new TreeSet<>();
    for (long u : users) {
      shards.add(shardOf(c, u));
    }
    return shards;
  }

  private static int shardOf(Connection c, long user) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT * FROM bt_rows WHERE user_id = " + user)) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
