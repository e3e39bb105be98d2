package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * setQueryTimeout, Statement.cancel() and setNetworkTimeout reach every shard of a fan-out, merged
 * or not: the caller gets the timeout (or cancel) error long before the 5 s the shards would sleep,
 * and no shard is left running the query.
 */
class TimeoutCancelTest {
  /** Far below the 5 s a shard would sleep: the bound (1 s) plus a generous margin for a loaded machine. */
  private static final long WELL_BEFORE_MS = 4_000;

  @BeforeAll
  static void rows() throws SQLException {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS tc_t (user_id BIGINT, v INT)",
        "DELETE FROM tc_t WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8)");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (int u = 1; u <= 8; u++) {
        s.executeUpdate("INSERT INTO tc_t (user_id, v) VALUES (" + u + ", " + u + ")");
      }
    }
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertTrue(TestCluster.countOnShard(shard, "tc_t", null) > 0, "rows on shard " + shard);
    }
  }

  private static long timed(Statement s, String sql) {
    long start = System.nanoTime();
    SQLException e = assertThrows(SQLException.class, () -> {
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          rs.getObject(1);
        }
      }
    }, sql);
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertInstanceOf(SQLTimeoutException.class, e, sql + " -> " + e);
    assertEquals("HYT00", e.getSQLState(), e.toString());
    assertTrue(ms < WELL_BEFORE_MS, sql + " took " + ms + " ms");
    System.out.println("timeout after " + ms + " ms: " + sql);
    return ms;
  }

  @Test
  void queryTimeoutReachesMergedAndPlainFanouts() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      timed(s, "SELECT SLEEP(5) AS tq FROM tc_t LIMIT 1");
      timed(s, "SELECT COUNT(*), SUM(SLEEP(5)) AS tq FROM tc_t");
      timed(s, "SELECT SLEEP(5) AS tq, v FROM tc_t");
      timed(s, "SELECT SLEEP(5) AS tq FROM tc_t WHERE user_id = 3");
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), SUM(SLEEP(?)) AS tq FROM tc_t")) {
        ps.setQueryTimeout(1);
        ps.setInt(1, 5);
        timedPrepared(ps);
      }
    }
    assertNoShardStillSleeps("tq");
  }

  private static void timedPrepared(PreparedStatement ps) {
    long start = System.nanoTime();
    SQLException e = assertThrows(SQLException.class, ps::executeQuery);
    assertInstanceOf(SQLTimeoutException.class, e, e.toString());
    assertTrue((System.nanoTime() - start) / 1_000_000 < WELL_BEFORE_MS);
  }

  @Test
  void cancelReachesEveryShard() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (String sql : new String[] {"SELECT COUNT(*), SUM(SLEEP(5)) AS cq FROM tc_t", "SELECT SLEEP(5) AS cq, v FROM tc_t"}) {
        long start = System.nanoTime();
        Future<Object> run = other.submit(() -> {
          try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
              rs.getObject(1);
            }
          }
          return "finished";
        });
        Thread.sleep(700);
        s.cancel();
        var failure = assertThrows(java.util.concurrent.ExecutionException.class, () -> run.get(10, TimeUnit.SECONDS));
        SQLException e = assertInstanceOf(SQLException.class, failure.getCause(), sql);
        assertEquals("70100", e.getSQLState(), e.toString());
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms < WELL_BEFORE_MS, sql);
        System.out.println("cancelled at 700 ms, failed after " + ms + " ms: " + sql);
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM tc_t WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8)")) {
        assertTrue(rs.next(), "the statement runs again after a cancel");
        assertEquals(8, rs.getInt(1));
      }
    } finally {
      other.shutdownNow();
    }
    assertNoShardStillSleeps("cq");
  }

  @Test
  void networkTimeoutReachesEveryShard() throws Exception {
    ExecutorService executor = Executors.newCachedThreadPool();
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setNetworkTimeout(executor, 1000);
      assertEquals(1000, c.getNetworkTimeout());
      long start = System.nanoTime();
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT COUNT(*), SUM(SLEEP(5)) FROM tc_t"));
      assertInstanceOf(SQLTimeoutException.class, e, e.toString());
      assertTrue(e.getMessage().startsWith("Shardex SHX1411"), e.getMessage() + " / " + e.getCause());
      long ms = (System.nanoTime() - start) / 1_000_000;
      assertTrue(ms < WELL_BEFORE_MS);
      System.out.println("network timeout (1000 ms) after " + ms + " ms");
      c.setNetworkTimeout(executor, 0);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM tc_t WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8)")) {
        assertTrue(rs.next());
        assertEquals(8, rs.getInt(1));
      }
    } finally {
      executor.shutdownNow();
    }
  }

  /** No shard is still running one of the test's sleeps (the kill reached it), within a few seconds. */
  private static void assertNoShardStillSleeps(String marker) throws Exception {
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      String sleeping;
      do {
        sleeping = TestCluster.onShard(shard, "SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE '%SLEEP(%" + marker + "%tc_t%'"
            + " AND info NOT LIKE '%processlist%'").get(0);
      } while (!sleeping.equals("0") && System.nanoTime() < deadline && sleepBriefly());
      assertEquals("0", sleeping, "shard " + shard + " still runs a cancelled query");
    }
  }

  private static boolean sleepBriefly() throws InterruptedException {
    Thread.sleep(100);
    return true;
  }
}
