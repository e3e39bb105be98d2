package dev.shardex.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The meters a dashboard reads, after real statements on a 4-shard sandbox, from Micrometer's SimpleMeterRegistry. */
class ShardexMetricsTest {
  private static final String URL = "jdbc:shardex:sandbox:micrometer?shards=4&shardex.instance=mm";
  private static final String TABLE =
      "/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS mm_rows (user_id BIGINT PRIMARY KEY, v INT)";

  private static void query(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next(), sql);
    }
  }

  /** Shard -> a key placed on it (keys 1..n inserted until every shard has one). */
  private static Map<Integer, Long> keysByShard(Connection c, Statement s) throws SQLException {
    Map<Integer, Long> keys = new HashMap<>();
    for (long u = 1; keys.size() < 4 && u < 200; u++) {
      s.executeUpdate("REPLACE INTO mm_rows (user_id, v) VALUES (" + u + ", 1)");
      try (ResultSet rs = s.executeQuery("EXPLAIN ROUTE SELECT v FROM mm_rows WHERE user_id = " + u)) {
        rs.next();
        keys.putIfAbsent(rs.getInt(1), u);
      }
    }
    return keys;
  }

  @Test
  void aOneShardStatementAScatterARefusalAShardErrorAndACrossShardCommitShowUp() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (AutoCloseable installed = ShardexMetrics.install(registry);
        Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute(TABLE);
      Map<Integer, Long> keys = keysByShard(c, s);
      // other tests' clusters, still open in this JVM, have meters in the registry too: read this one's
      String cluster = registry.get(MeterNames.STATEMENTS).meters().iterator().next().getId().getTag("cluster");
      assertTrue(cluster.matches("mm-c\\d+"), cluster);

      query(s, "SELECT v FROM mm_rows WHERE user_id = " + keys.get(2));
      query(s, "SELECT v FROM mm_rows WHERE v > 0");
      SQLException refused = assertThrows(SQLException.class, () -> s.executeUpdate("DELETE FROM mm_rows"));
      assertTrue(refused.getMessage().contains("SHX1201"), refused.getMessage());
      assertThrows(SQLException.class, () -> s.executeQuery("SELECT nope FROM mm_rows WHERE user_id = 1"));
      c.setAutoCommit(false);
      s.executeUpdate("UPDATE mm_rows SET v = v + 1 WHERE user_id = " + keys.get(0));
      s.executeUpdate("UPDATE mm_rows SET v = v + 1 WHERE user_id = " + keys.get(1));
      c.commit();
      c.setAutoCommit(true);

      assertEquals(1, registry.get(MeterNames.STATEMENTS).tag("cluster", cluster).tags("operation", "select", "route", "one_shard", "outcome", "ok")
          .timer().count(), "EXPLAIN ROUTE is counted apart (operation explain_route, route local)");
      assertEquals(1, registry.get(MeterNames.STATEMENTS).tag("cluster", cluster).tags("operation", "select", "route", "all", "outcome", "ok")
          .timer().count());
      assertEquals(1, registry.get(MeterNames.STATEMENTS).tag("cluster", cluster).tags("operation", "delete", "outcome", "refused").timer().count());
      assertEquals(1, registry.get(MeterNames.STATEMENTS).tag("cluster", cluster).tags("operation", "select", "outcome", "error").timer().count());
      assertEquals(1, registry.get(MeterNames.REFUSALS).tag("cluster", cluster).tag("error.type", "SHX1201").counter().count());
      assertEquals(1, registry.get(MeterNames.ERRORS).tag("cluster", cluster).tag("error.type", "1054").counter().count());
      var everywhere = registry.get(MeterNames.FANOUT).tag("cluster", cluster).tag("route", "all").summary();
      assertEquals(2, everywhere.count(), "the CREATE TABLE and the scatter");
      assertEquals(8, everywhere.totalAmount(), "4 shards each");
      assertEquals(1, registry.get(MeterNames.TRANSACTIONS).tag("cluster", cluster)
          .tags("mode", "atomic", "scope", "multi_shard", "outcome", "committed").timer().count());
      assertEquals(0, registry.get(MeterNames.FANOUT).tag("cluster", cluster).tag("route", "one_shard").summary().count(),
          "a one-shard statement's one call is not recorded: its fan-out is the route's own");
      var shardCalls = registry.get(MeterNames.SHARD_CALLS).tag("cluster", cluster).tag("shard", "2").functionTimer();
      assertTrue(shardCalls.count() >= 2, "shard 2's calls: " + shardCalls.count());
      assertTrue(shardCalls.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) > 0);
      assertNull(registry.find(MeterNames.SHARD_ERRORS).meter(), "an unknown column is the client's error, not the shard's");
      assertTrue(registry.get(MeterNames.CACHE_GETS).tag("cluster", cluster).tag("result", "hit").functionCounter().count() >= 1);
      assertTrue(registry.get(MeterNames.LEASE_AGE).tag("cluster", cluster).gauge().value() < 2.0);
      for (int shard = 0; shard < 4; shard++) {
        var pool = registry.get("hikaricp.connections").tags("shard", Integer.toString(shard), "cluster", cluster).gauge();
        assertTrue(pool.value() >= 1, "shard " + shard + "'s pool reports with its shard tag");
        assertEquals("shardex-" + cluster + "-shard-" + shard, pool.getId().getTag("pool"));
      }
      for (var meter : registry.getMeters()) { // and docs/observability.md lists MeterNames (ObservabilityReadmeTest)
        String name = meter.getId().getName();
        assertTrue(MeterNames.ALL.contains(name) || MeterNames.POOL.contains(name), "a meter MeterNames lacks: " + name);
        assertTrue(meter.getId().getTag("cluster") != null, name + " has its cluster tag");
      }
    }
    assertNull(registry.find(MeterNames.STATEMENTS).meter(), "closing the registration removes the cluster's meters");
  }

  /** A stopped shard: the statement fails with SHX1401, counted as an error and against that shard. */
  @Test
  void aStoppedShardCountsAgainstTheShard() throws Exception {
    var sandbox = dev.shardex.sandbox.SandboxCluster.shared("micrometer", 4);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (AutoCloseable installed = ShardexMetrics.install(registry);
        Connection c = DriverManager.getConnection(URL + "fail&shardex.connectTimeoutMs=1000");
        Statement s = c.createStatement()) {
      s.execute(TABLE);
      long key = keysByShard(c, s).get(1);
      sandbox.stopShard(1);
      try {
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT v FROM mm_rows WHERE user_id = " + key));
        assertTrue(e.getMessage().contains("SHX1401"), e.getMessage());
      } finally {
        sandbox.startShard(1);
      }
      assertEquals(1, registry.get(MeterNames.STATEMENTS).tags("operation", "select", "route", "one_shard", "outcome", "error")
          .timer().count());
      assertEquals(1, registry.get(MeterNames.ERRORS).tag("error.type", "SHX1401").counter().count());
      assertEquals(1, registry.get(MeterNames.SHARD_ERRORS).tags("shard", "1", "error.type", "SHX1401").counter().count());
      assertNull(registry.find(MeterNames.REFUSALS).meter(), "a shard's failure is no refusal");
    }
  }

  /**
   * A one-shard write's call ends inside its statement and is timed by the statement's end (one
   * clock read for both): each call counted once, on its shard, and no longer than its statements.
   * A query's result set left open across a write ends its call after that write, counted apart.
   */
  @Test
  void aOneShardWritesCallIsCountedOnceAndWithinItsStatement() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (AutoCloseable installed = ShardexMetrics.install(registry);
        Connection c = DriverManager.getConnection(URL + "w"); Statement s = c.createStatement();
        Statement other = c.createStatement()) {
      s.execute(TABLE);
      long key = keysByShard(c, s).get(3);
      String cluster = registry.get(MeterNames.STATEMENTS).meters().iterator().next().getId().getTag("cluster");
      assertTrue(cluster.matches("mmw-c\\d+"), cluster);
      var calls = registry.get(MeterNames.SHARD_CALLS).tag("cluster", cluster).tag("shard", "3").functionTimer();
      double before = calls.count();
      double beforeNanos = calls.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS);
      for (int i = 0; i < 5; i++) {
        assertEquals(1, s.executeUpdate("UPDATE mm_rows SET v = v + 1 WHERE user_id = " + key));
      }
      var updates = registry.get(MeterNames.STATEMENTS).tag("cluster", cluster)
          .tags("operation", "update", "route", "one_shard", "outcome", "ok").timer();
      assertEquals(5, updates.count());
      assertEquals(5, calls.count() - before, "one call per update, told once");
      double callNanos = calls.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) - beforeNanos;
      assertTrue(callNanos > 0 && callNanos <= updates.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS),
          callNanos + " ns of calls in " + updates.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) + " ns of updates");

      try (ResultSet open = other.executeQuery("SELECT v FROM mm_rows WHERE user_id = " + key)) {
        assertTrue(open.next());
        assertEquals(1, s.executeUpdate("UPDATE mm_rows SET v = v + 1 WHERE user_id = " + key));
        assertEquals(6, calls.count() - before, "the update's call, not yet the open query's");
      }
      assertEquals(7, calls.count() - before, "the query's call ended at its close");
      assertEquals(6, updates.count());
    }
  }

  /**
   * Two clusters of one instance, opened with other credentials, in one JVM: each one's shard
   * pools report under a pool and cluster tag of their own, so their figures never merge.
   */
  @Test
  void twoClustersWithOtherCredentialsReportTheirOwnPools() throws Exception {
    // the sandbox URL makes the directory and the table (as an instance of its own: the other tests'
    // clusters must open after their registry is installed, so that their pools get its tracker)
    try (Connection c = DriverManager.getConnection(URL + "setup"); Statement s = c.createStatement()) {
      s.execute(TABLE);
    }
    var sandbox = dev.shardex.sandbox.SandboxCluster.shared("micrometer", 4);
    List<Connection> servers = new ArrayList<>(List.of(sandbox.connectDirectory()));
    for (int i = 0; i < 4; i++) {
      servers.add(sandbox.connectShard(i));
    }
    for (Connection server : servers) {
      try (Connection c = server; Statement s = c.createStatement()) {
        for (String host : new String[] {"%", "localhost"}) {
          s.execute("CREATE USER IF NOT EXISTS 'mm_second'@'" + host + "' IDENTIFIED BY 'second-Pw-22'");
          s.execute("GRANT ALL PRIVILEGES ON `" + c.getCatalog() + "`.* TO 'mm_second'@'" + host + "'");
        }
      }
    }
    String url = "jdbc:shardex:" + sandbox.directoryUrl().substring("jdbc:".length()) + "?shardex.instance=mmtwo";
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (AutoCloseable installed = ShardexMetrics.install(registry);
        Connection first = DriverManager.getConnection(url, sandbox.user(), sandbox.password());
        Connection second = DriverManager.getConnection(url, "mm_second", "second-Pw-22")) {
      for (Connection c : List.of(first, second)) {
        try (Statement s = c.createStatement()) {
          query(s, "SELECT COUNT(*) FROM mm_rows"); // every shard: every pool is made
        }
      }
      Map<String, Set<String>> poolsByCluster = new HashMap<>();
      for (var gauge : registry.find("hikaricp.connections").gauges()) {
        poolsByCluster.computeIfAbsent(gauge.getId().getTag("cluster"), k -> new HashSet<>()).add(gauge.getId().getTag("pool"));
      }
      assertEquals(2, poolsByCluster.size(), "two clusters: " + poolsByCluster);
      for (var e : poolsByCluster.entrySet()) {
        assertTrue(e.getKey().matches("mmtwo-c\\d+"), e.getKey());
        assertEquals(4, e.getValue().size(), "a pool per shard: " + e);
        assertTrue(e.getValue().stream().allMatch(p -> p.startsWith("shardex-" + e.getKey() + "-shard-")), e.toString());
      }
    }
  }
}
