package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Facebook's "non-stored procedures": a same-shard multi-statement text costs one round trip. */
class MultiStatementTest {
  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ms_rows (user_id BIGINT, n INT)",
        "INSERT INTO ms_rows (user_id, n) VALUES (81001, 0)", "INSERT INTO ms_rows (user_id, n) VALUES (81002, 0)");
  }

  @Test
  void sameShardTextGoesAsOneRoundTripWithConnectorJResults() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      var metrics = TestCluster.cluster(c).metrics();
      long before = metrics.roundTrips();
      boolean query = s.execute("UPDATE ms_rows SET n = n + 1 WHERE user_id = 81001; "
          + "INSERT INTO ms_rows (user_id, n) VALUES (81001, 7); SELECT SUM(n) FROM ms_rows WHERE user_id = 81001");
      assertEquals(before + 1, metrics.roundTrips(), "one round trip for three statements");
      assertFalse(query);
      assertEquals(1, s.getUpdateCount());
      assertFalse(s.getMoreResults());
      assertEquals(1, s.getUpdateCount());
      assertTrue(s.getMoreResults());
      try (ResultSet rs = s.getResultSet()) {
        rs.next();
        assertTrue(rs.getLong(1) >= 8);
      }
      assertFalse(s.getMoreResults());
      assertEquals(-1, s.getUpdateCount());
    }
  }

  @Test
  void aWholeTransactionOnOneShardGoesAsOneRoundTripAndAFailedPartRollsItBack() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ms_tx (user_id BIGINT, k INT, "
        + "PRIMARY KEY (user_id, k))", "DELETE FROM ms_tx WHERE user_id = 81003");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      var metrics = TestCluster.cluster(c).metrics();
      long before = metrics.roundTrips();
      s.execute("START TRANSACTION; INSERT INTO ms_tx (user_id, k) VALUES (81003, 1); "
          + "UPDATE ms_tx SET k = k + ROW_COUNT() WHERE user_id = 81003; COMMIT");
      assertEquals(before + 1, metrics.roundTrips(), "BEGIN, two statements and COMMIT in one round trip");
      assertTrue(c.getAutoCommit(), "the logical connection stays in autocommit");
      assertEquals(java.util.List.of("2"), TestCluster.onShard(shardOf(c, 81003), "SELECT k FROM ms_tx WHERE user_id = 81003"));
      // the second INSERT collides: the server stops there, and the first INSERT must not survive
      assertThrows(java.sql.SQLException.class, () -> s.execute("START TRANSACTION; "
          + "INSERT INTO ms_tx (user_id, k) VALUES (81003, 5); INSERT INTO ms_tx (user_id, k) VALUES (81003, 2); COMMIT"));
      // the pooled connection comes back; a START TRANSACTION there would commit anything left open
      s.execute("START TRANSACTION; UPDATE ms_tx SET k = k WHERE user_id = 81003; COMMIT");
      assertEquals(java.util.List.of("2"), TestCluster.onShard(shardOf(c, 81003), "SELECT k FROM ms_tx WHERE user_id = 81003"),
          "the failed text left nothing behind");
    }
  }

  private static int shardOf(Connection c, long user) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT * FROM ms_tx WHERE user_id = " + user)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void aFailingLaterPartGivesTheEarlierPartsConnectionsBack() throws Exception {
    // two connections per shard: a part's result set left open by a later failure would exhaust the pool
    try (Connection c = TestCluster.connect("shardex.poolSize=2&shardex.instance=multileak&shardex.connectTimeoutMs=1000");
        Statement s = c.createStatement()) {
      for (int i = 0; i < 4; i++) {
        java.sql.SQLException e = assertThrows(java.sql.SQLException.class,
            () -> s.execute("SELECT n FROM ms_rows WHERE user_id = 81001; SELECT no_such_column FROM ms_rows"));
        assertEquals(1054, e.getErrorCode(), "the second part's own error every time, not a pool timeout: " + e.getMessage());
      }
    }
  }

  @Test
  void partsOnDifferentShardsRunOneByOneInOrder() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      var store = TestCluster.cluster(c).directory().store();
      long other = -1;
      for (long u = 81002; u < 81100; u++) {
        s.executeUpdate("INSERT INTO ms_rows (user_id, n) VALUES (" + u + ", 0)");
        if (store.lookup(KeySpace.DEFAULT, Long.toString(u)).shardId() != store.lookup(KeySpace.DEFAULT, "81001").shardId()) {
          other = u;
          break;
        }
      }
      assertTrue(other > 0);
      assertTrue(s.execute("SELECT COUNT(*) FROM ms_rows WHERE user_id = 81001; DELETE FROM ms_rows WHERE user_id = " + other));
      try (ResultSet rs = s.getResultSet()) {
        assertTrue(rs.next());
      }
      assertFalse(s.getMoreResults());
      assertTrue(s.getUpdateCount() >= 1, "the DELETE on the other shard ran after the SELECT");
      assertFalse(s.getMoreResults());
      assertEquals(-1, s.getUpdateCount());
    }
  }
}
