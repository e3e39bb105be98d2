package dev.shardex.driver.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.driver.TestCluster;
import dev.shardex.vocabulary.KeySpace;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The default telemetry, read as an operator would: through the platform MBean server, after real
 * statements on the sandbox. Each test opens its own cluster (its own instance name), so the
 * counters start at zero.
 */
class JmxTelemetryTest {
  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS obs_rows (user_id BIGINT PRIMARY KEY, v INT)",
        "REPLACE INTO obs_rows (user_id, v) VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)");
  }

  private static Connection connect(String instance) throws SQLException {
    return TestCluster.connect("shardex.instance=" + instance);
  }

  private static ObjectName bean(String instance) throws Exception {
    var names = SERVER.queryNames(new ObjectName("dev.shardex:type=Cluster,instance=" + instance + ",*"), null);
    assertEquals(1, names.size(), "one bean for the instance: " + names);
    return names.iterator().next();
  }

  private static Map<String, Long> map(ObjectName bean, String attribute) throws Exception {
    Map<String, Long> out = new HashMap<>();
    for (Object row : ((TabularData) SERVER.getAttribute(bean, attribute)).values()) {
      CompositeData d = (CompositeData) row;
      out.put((String) d.get("key"), (Long) d.get("value"));
    }
    return out;
  }

  @Test
  void statementsShowUpByRouteAndOutcome() throws Exception {
    try (Connection c = connect("obsjmx1"); Statement s = c.createStatement()) {
      ObjectName bean = bean("obsjmx1");
      try (ResultSet rs = s.executeQuery("SELECT v FROM obs_rows WHERE user_id = 3")) {
        assertTrue(rs.next());
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM obs_rows")) { // scatter, merged
        assertTrue(rs.next());
      }
      try (ResultSet rs = s.executeQuery("SELECT v FROM obs_rows WHERE v > 0")) { // scatter, concatenated
        assertTrue(rs.next());
      }
      SQLException refused = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE obs_rows SET v = 0"));
      assertTrue(refused.getMessage().contains("SHX1201"), refused.getMessage());
      SQLException failed = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT no_such_column FROM obs_rows WHERE user_id = 3"));
      assertEquals(1054, failed.getErrorCode());

      Map<String, Long> statements = map(bean, "Statements");
      assertEquals(1L, statements.get("one_shard.ok"), statements.toString());
      assertEquals(1L, statements.get("merged.ok"), statements.toString());
      assertEquals(1L, statements.get("all.ok"), statements.toString());
      assertEquals(1L, statements.get("none.refused"), statements.toString());
      assertEquals(1L, statements.get("one_shard.error"), statements.toString());
      assertEquals(Map.of("SHX1201", 1L), map(bean, "Refusals"));
      assertEquals(Map.of("1054", 1L), map(bean, "Errors"));
      assertEquals(1 + 4 + 4 + 1L, SERVER.getAttribute(bean, "FanoutShardCalls"), "shard calls of the five statements");
      assertTrue(map(bean, "ShardErrors").isEmpty(), "an unknown column is the client's error, not the shard's");
      assertEquals(4, map(bean, "ShardCalls").size(), "every shard was called");
    }
  }

  @Test
  void aStoppedShardCountsAsItsErrorAndTheStatements() throws Exception {
    var sandbox = dev.shardex.sandbox.SandboxCluster.shared("failover", 2);
    String url = "jdbc:shardex:sandbox:failover?shards=2&shardex.connectTimeoutMs=1000&shardex.instance=obsjmx4";
    try (Connection c = java.sql.DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS obs_fail (user_id BIGINT, v INT)");
      long onOne = 0;
      var store = TestCluster.cluster(c).directory().store();
      for (long u = 1; onOne == 0; u++) {
        s.executeUpdate("INSERT INTO obs_fail (user_id, v) VALUES (" + u + ", 1)");
        onOne = store.lookup(KeySpace.DEFAULT, Long.toString(u)).shardId() == 1 ? u : 0;
      }
      ObjectName bean = bean("obsjmx4");
      long before = map(bean, "Statements").get("one_shard.ok");
      sandbox.stopShard(1);
      try {
        long key = onOne;
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT v FROM obs_fail WHERE user_id = " + key));
        assertTrue(e.getMessage().contains("SHX1401"), e.getMessage());
      } finally {
        sandbox.startShard(1);
      }
      Map<String, Long> statements = map(bean, "Statements");
      assertEquals(before, statements.get("one_shard.ok"), statements.toString());
      assertEquals(1L, statements.get("one_shard.error"), statements.toString());
      assertEquals(Map.of("SHX1401", 1L), map(bean, "Errors"));
      assertEquals(Map.of("1", 1L), map(bean, "ShardErrors"));
    }
  }

  @Test
  void aCrossShardCommitAndTheDirectoryShowUp() throws Exception {
    try (Connection c = connect("obsjmx2"); Statement s = c.createStatement()) {
      ObjectName bean = bean("obsjmx2");
      var store = TestCluster.cluster(c).directory().store();
      int first = store.lookup(KeySpace.DEFAULT, "1").shardId();
      long other = 2;
      while (store.lookup(KeySpace.DEFAULT, Long.toString(other)).shardId() == first) {
        other++;
      }
      c.setAutoCommit(false);
      s.executeUpdate("UPDATE obs_rows SET v = v + 1 WHERE user_id = 1");
      s.executeUpdate("UPDATE obs_rows SET v = v + 1 WHERE user_id = " + other);
      c.commit();
      s.executeUpdate("UPDATE obs_rows SET v = v - 1 WHERE user_id = 1");
      c.rollback();
      c.setAutoCommit(true);
      assertEquals(Map.of("atomic.multi_shard.committed", 1L, "atomic.one_shard.rolled_back", 1L),
          map(bean, "Transactions"));

      for (int i = 0; i < 3; i++) {
        try (ResultSet rs = s.executeQuery("SELECT v FROM obs_rows WHERE user_id = 5")) {
          assertTrue(rs.next());
        }
      }
      assertTrue((Long) SERVER.getAttribute(bean, "KeyCacheHits") >= 2, "the key was read from the cache");
      assertTrue((Long) SERVER.getAttribute(bean, "KeyCacheMisses") >= 1, "its first lookup missed");
      assertTrue((Long) SERVER.getAttribute(bean, "KeyCacheSize") >= 1);
      long age = (Long) SERVER.getAttribute(bean, "LeaseAgeMillis");
      assertTrue(age >= 0 && age < 2_000, "the lease is fresh: " + age);
      assertEquals(0, SERVER.getAttribute(bean, "KeysMoving"));
    }
  }

  @Test
  void eachShardPoolRegistersItsHikariBeanAndCloseUnregistersAll() throws Exception {
    Cluster cluster;
    ObjectName bean;
    String pool;
    try (Connection c = connect("obsjmx3"); Statement s = c.createStatement()) {
      cluster = TestCluster.cluster(c);
      bean = bean("obsjmx3");
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM obs_rows")) {
        assertTrue(rs.next());
      }
      pool = cluster.pools().poolName(0);
      assertTrue(pool.matches("shardex-obsjmx3-c\\d+-shard-0"), pool);
      ObjectName hikari = new ObjectName("com.zaxxer.hikari:type=Pool (" + pool + ")");
      assertTrue(SERVER.isRegistered(hikari), "HikariCP's own bean of " + pool);
      assertTrue((Integer) SERVER.getAttribute(hikari, "TotalConnections") >= 1);
    }
    cluster.close();
    assertFalse(SERVER.isRegistered(bean), "the cluster's bean goes with it");
    assertFalse(SERVER.isRegistered(new ObjectName("com.zaxxer.hikari:type=Pool (" + pool + ")")));
  }
}
