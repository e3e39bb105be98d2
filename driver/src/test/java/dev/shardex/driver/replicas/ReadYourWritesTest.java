package dev.shardex.driver.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import dev.shardex.driver.execute.ReplicaHealth;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Read-your-writes with real replication: a connection that reads replicas and writes a row reads it
 * back from the replica only once the replica has applied the write (MASTER_GTID_WAIT in front of the
 * read, one round trip), else from the primary. Each test has a cluster of its own (its own
 * {@code shardex.instance}), so its counters are its own.
 */
@Timeout(300)
class ReadYourWritesTest {
  static final String BASE = ReplicaCatalogTest.URL + "&shardex.readTarget=replica_preferred";
  static final int PAIRS = 1_000;

  @BeforeAll
  static void schema() throws SQLException {
    try (Connection c = DriverManager.getConnection(ReplicaCatalogTest.URL); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS ryw");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE ryw "
          + "(user_id BIGINT NOT NULL, id BIGINT NOT NULL, v VARCHAR(20), PRIMARY KEY (user_id, id))");
    }
  }

  @Test
  void readYourWrites_holdsOver1000WriteThenReadPairs_andTheReadsWaitOnTheReplica() throws Exception {
    try (Connection c = DriverManager.getConnection(BASE + "&shardex.instance=ryw-on")) {
      ReplicaHealth health = awaitReplicaReads(c);
      long waits = health.causalWaits();
      long causal = health.fallbacks(ReplicaHealth.Fallback.CAUSAL);
      long stale = pairs(c, 1000, "on");
      long sent = health.causalWaits() - waits;
      long toPrimary = health.fallbacks(ReplicaHealth.Fallback.CAUSAL) - causal;
      System.out.printf("read-your-writes on: %d pairs, %d stale, %d reads waited on a replica, %d of them went to the primary%n",
          PAIRS, stale, sent, toPrimary);
      assertEquals(0, stale, "every read sees the write before it");
      assertTrue(sent >= PAIRS / 2, "most reads went to the replica behind a wait for their write: " + sent);
    }
  }

  @Test
  void withItOff_theReadsGoToTheReplicaWithoutWaiting() throws Exception {
    try (Connection c = DriverManager.getConnection(BASE + "&shardex.instance=ryw-off&shardex.readYourWrites=false")) {
      ReplicaHealth health = awaitReplicaReads(c);
      long served = health.replicaReads();
      long stale = pairs(c, 1500, "off");
      long onReplica = health.replicaReads() - served;
      System.out.printf("read-your-writes off: %d pairs, %d stale reads, %d reads on a replica%n", PAIRS, stale, onReplica);
      assertEquals(0, health.causalWaits(), "no read waited");
      assertTrue(onReplica >= PAIRS / 2, "most reads right after their write went to the replica: " + onReplica);
    }
  }

  @Test
  void aReplicaTooFarBehindForTheWait_sendsTheReadToThePrimary_andOneWithinItAnswers() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared(ReplicaCatalogTest.NAME, 2, 1);
    try (Connection shortWait = DriverManager.getConnection(BASE + "&shardex.instance=ryw-short&shardex.causalWaitMs=200");
        Connection longWait = DriverManager.getConnection(BASE + "&shardex.instance=ryw-long&shardex.causalWaitMs=8000")) {
      ReplicaHealth shortHealth = awaitReplicaReads(shortWait);
      ReplicaHealth longHealth = awaitReplicaReads(longWait);
      for (int shard = 0; shard < 2; shard++) {
        sandbox.replica(shard, 0).delay(1);
      }
      try {
        awaitReplicaReads(shortWait); // the replicas were restarted with the delay: measured again
        long causal = shortHealth.fallbacks(ReplicaHealth.Fallback.CAUSAL);
        long shortWaits = shortHealth.causalWaits();
        // a read goes to the replica (behind a wait) only while the probe finds it healthy: pairs until 3 did
        for (int i = 0; i < 30 && shortHealth.causalWaits() < shortWaits + 3; i++) {
          write(shortWait, 1900 + i, 1, "short" + i);
          assertEquals("short" + i, read(shortWait, 1900 + i, 1));
        }
        long sent = shortHealth.causalWaits() - shortWaits;
        assertTrue(sent >= 3, "reads waited on the replica: " + sent);
        assertTrue(shortHealth.fallbacks(ReplicaHealth.Fallback.CAUSAL) - causal >= sent,
            "a replica 1 s behind reaches no write within 200 ms: every read that waited ran on the primary");
        awaitReplicaReads(longWait);
        long waits = longHealth.causalWaits();
        long longCausal = longHealth.fallbacks(ReplicaHealth.Fallback.CAUSAL);
        for (int i = 0; i < 30 && longHealth.causalWaits() < waits + 3; i++) {
          write(longWait, 1950 + i, 1, "long" + i);
          assertEquals("long" + i, read(longWait, 1950 + i, 1));
        }
        assertTrue(longHealth.causalWaits() >= waits + 3, "the reads waited on the replica");
        assertEquals(longCausal, longHealth.fallbacks(ReplicaHealth.Fallback.CAUSAL), "and the replica got there within 8 s");
      } finally {
        for (int shard = 0; shard < 2; shard++) {
          sandbox.replica(shard, 0).delay(0);
          sandbox.replica(shard, 0).awaitCaughtUp();
        }
      }
    }
  }

  @Test
  void aCommittedTransaction_isReadBackAfterItsWait() throws Exception {
    try (Connection c = DriverManager.getConnection(BASE + "&shardex.instance=ryw-tx")) {
      ReplicaHealth health = awaitReplicaReads(c);
      for (int i = 0; i < 20; i++) {
        c.setAutoCommit(false);
        write(c, 1800 + i % 4, 10 + i, "tx" + i);
        write(c, 1800 + (i + 1) % 4, 10 + i, "tx" + i);
        c.commit();
        c.setAutoCommit(true);
        assertEquals("tx" + i, read(c, 1800 + i % 4, 10 + i));
        assertEquals("tx" + i, read(c, 1800 + (i + 1) % 4, 10 + i));
      }
      assertTrue(health.causalWaits() > 0, "reads after the commits waited on replicas");
    }
  }

  /** Write-then-read pairs (an insert, then an update of the row just inserted): the reads that missed their write. */
  private static long pairs(Connection c, long firstUser, String tag) throws SQLException {
    long stale = 0;
    for (int i = 0; i < PAIRS; i++) {
      long user = firstUser + (i / 2) % 50; // an insert and the update of its row share the user
      String value = tag + i;
      if (i % 2 == 0) {
        write(c, user, i, value);
      } else {
        try (PreparedStatement ps = c.prepareStatement("UPDATE ryw SET v = ? WHERE user_id = ? AND id = ?")) {
          ps.setString(1, value);
          ps.setLong(2, user);
          ps.setLong(3, i - 1);
          assertEquals(1, ps.executeUpdate());
        }
      }
      String got = read(c, user, i % 2 == 0 ? i : i - 1);
      stale += value.equals(got) ? 0 : 1;
    }
    return stale;
  }

  private static void write(Connection c, long user, long id, String v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO ryw (user_id, id, v) VALUES (?, ?, ?)")) {
      ps.setLong(1, user);
      ps.setLong(2, id);
      ps.setString(3, v);
      ps.executeUpdate();
    }
  }

  /** Half the reads are plain statements, half prepared: both kinds carry the wait. */
  private static String read(Connection c, long user, long id) throws SQLException {
    if (id % 4 < 2) {
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT v FROM ryw WHERE user_id = " + user + " AND id = " + id)) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM ryw WHERE user_id = ? AND id = ?")) {
      ps.setLong(1, user);
      ps.setLong(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /** Reads until a replica answers one (the probe has measured the replicas): the cluster's health. */
  static ReplicaHealth awaitReplicaReads(Connection c) throws Exception {
    ReplicaHealth health = TestCluster.cluster(c).replicaHealth();
    long before = health.replicaReads();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (health.replicaReads() == before && System.nanoTime() < deadline) {
      read(c, 1, 1);
      Thread.sleep(50);
    }
    assertTrue(health.replicaReads() > before, "no read went to a replica within 30 s");
    return health;
  }
}
