package dev.shardex.driver.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import dev.shardex.driver.execute.ReplicaHealth;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.sandbox.SandboxReplica;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where reads go with real replicas: the row of user 1 says 'on-replica' on the replicas only (written
 * there directly, never touched again through the primary), so a read's answer names the server that
 * gave it.
 */
@Timeout(180)
class ReplicaRoutingTest {
  static final String URL = ReplicaCatalogTest.URL;
  static final String PREFERRED = URL + "&shardex.readTarget=replica_preferred";
  static final String READ = "SELECT v FROM rr WHERE user_id = 1";
  static SandboxCluster sandbox;

  @BeforeAll
  static void schema() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS rr (user_id BIGINT PRIMARY KEY, v VARCHAR(20))");
      s.execute("DELETE FROM rr WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8)");
      for (int u = 1; u <= 8; u++) {
        s.execute("INSERT INTO rr VALUES (" + u + ", 'primary')");
      }
    }
    sandbox = SandboxCluster.shared(ReplicaCatalogTest.NAME, 2, 1);
    for (int shard = 0; shard < 2; shard++) {
      SandboxReplica replica = sandbox.replica(shard, 0);
      replica.awaitCaughtUp();
      try (Connection r = replica.connect(); Statement s = r.createStatement()) {
        s.executeUpdate("UPDATE rr SET v = 'on-replica' WHERE user_id = 1");
      }
    }
  }

  @Test
  void byDefault_everyReadGoesToThePrimary() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL)) {
      assertEquals("primary", read(c));
      c.setReadOnly(true);
      assertEquals("primary", read(c), "setReadOnly(true) alone keeps reads on the primary (readOnlyTarget=primary)");
    }
  }

  @Test
  void replicaPreferred_readsFromTheReplica_butNeverInATransactionOrALockingRead() throws Exception {
    try (Connection c = DriverManager.getConnection(PREFERRED)) {
      awaitAnswer(c, "on-replica");
      for (int i = 0; i < 50; i++) {
        assertEquals("on-replica", read(c));
      }
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(READ + " FOR UPDATE")) {
        rs.next();
        assertEquals("primary", rs.getString(1), "a locking read");
      }
      c.setAutoCommit(false);
      assertEquals("primary", read(c), "inside a transaction");
      c.commit();
      c.setAutoCommit(true);
      assertEquals("on-replica", read(c));
      assertTrue(TestCluster.cluster(c).replicaHealth().replicaReads() >= 51);
    }
  }

  @Test
  void readOnlyTargetReplica_followsSetReadOnly() throws Exception {
    try (Connection c = DriverManager.getConnection(URL + "&shardex.readOnlyTarget=replica")) {
      assertEquals("primary", read(c));
      c.setReadOnly(true);
      awaitAnswer(c, "on-replica");
      c.setReadOnly(false);
      assertEquals("primary", read(c));
    }
  }

  @Test
  void aStoppedSqlThread_sendsReadsToThePrimary_untilItRunsAgain() throws Exception {
    try (Connection c = DriverManager.getConnection(PREFERRED)) {
      awaitAnswer(c, "on-replica");
      ReplicaHealth health = TestCluster.cluster(c).replicaHealth();
      long before = health.fallbacks(ReplicaHealth.Fallback.UNKNOWN);
      for (int shard = 0; shard < 2; shard++) {
        sandbox.replica(shard, 0).pauseReplication();
      }
      try {
        awaitAnswer(c, "primary");
        for (int i = 0; i < 20; i++) {
          assertEquals("primary", read(c), "a replica with a stopped SQL thread has an unknown lag: unhealthy");
        }
        assertTrue(health.fallbacks(ReplicaHealth.Fallback.UNKNOWN) >= before + 20);
      } finally {
        for (int shard = 0; shard < 2; shard++) {
          sandbox.replica(shard, 0).resumeReplication();
        }
      }
      awaitAnswer(c, "on-replica");
    }
  }

  @Test
  void aKilledReplica_noReadFailsAfterTheFallback_andItIsUsedAgainOnceBack() throws Exception {
    try (Connection c = DriverManager.getConnection(PREFERRED)) {
      awaitAnswer(c, "on-replica");
      for (int shard = 0; shard < 2; shard++) {
        sandbox.replica(shard, 0).stop();
      }
      try {
        ReplicaHealth health = TestCluster.cluster(c).replicaHealth();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (health.fallbacks(ReplicaHealth.Fallback.DOWN) == 0 && System.nanoTime() < deadline) {
          // the probe marks the replica down within one poll; a read that meets the dead replica first
          // fails there and runs again on the primary (FAILED): none fails
          assertEquals("primary", read(c));
          Thread.sleep(20);
        }
        for (int i = 0; i < 200; i++) {
          assertEquals("primary", read(c));
        }
      } finally {
        for (int shard = 0; shard < 2; shard++) {
          sandbox.replica(shard, 0).start();
        }
      }
      awaitAnswer(c, "on-replica");
    }
  }

  private static String read(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(READ)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static void awaitAnswer(Connection c, String expected) throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    String last = null;
    while (System.nanoTime() < deadline) {
      last = read(c);
      if (expected.equals(last)) {
        return;
      }
      Thread.sleep(50);
    }
    assertEquals(expected, last, "no read answered '" + expected + "' within 20 s");
  }
}
