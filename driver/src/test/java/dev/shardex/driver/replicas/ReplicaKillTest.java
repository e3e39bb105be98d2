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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both replicas killed while four threads read from them: no read fails and none returns a wrong
 * row. A read in flight on a replica when it dies (or sent on a pooled connection to it before anyone
 * noticed) fails there and runs again on the primary, as every replica read may (a plain SELECT
 * outside a transaction); the replica is marked down at once, so the next reads go to the primary
 * without trying it; once restarted and measured again, it takes reads again.
 */
@Timeout(240)
class ReplicaKillTest {
  static final String URL = ReadYourWritesTest.BASE + "&shardex.instance=replica-kill";
  static final int THREADS = 4;
  static final int USERS = 16;

  @Test
  void aReplicaKilledUnderLoad_noReadFails() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared(ReplicaCatalogTest.NAME, 2, 1);
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS rk");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE rk (user_id BIGINT PRIMARY KEY, v VARCHAR(20))");
      for (int u = 1; u <= USERS; u++) {
        s.execute("INSERT INTO rk VALUES (" + u + ", 'user" + u + "')");
      }
      for (int shard = 0; shard < 2; shard++) {
        sandbox.replica(shard, 0).awaitCaughtUp();
      }
      ReplicaHealth health = TestCluster.cluster(c).replicaHealth();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong reads = new AtomicLong();
      ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        Thread thread = new Thread(() -> readUntil(stop, reads, failures), "reader-" + t);
        thread.start();
        threads.add(thread);
      }
      try {
        await(() -> health.replicaReads() >= 200, "the replicas take reads");
        long beforeKill = reads.get();
        for (int shard = 0; shard < 2; shard++) {
          sandbox.replica(shard, 0).stop();
        }
        long killed = reads.get();
        Thread.sleep(3_000);
        long whileDown = reads.get() - killed;
        for (int shard = 0; shard < 2; shard++) {
          sandbox.replica(shard, 0).start();
        }
        long served = health.replicaReads();
        await(() -> health.replicaReads() >= served + 200, "the restarted replicas take reads again");
        stop.set(true);
        for (Thread thread : threads) {
          thread.join(30_000);
        }
        System.out.printf("replica kill: %d reads (%d before the kill, %d in the 3 s down), %d failed;"
            + " fallbacks FAILED %d, DOWN %d, UNKNOWN %d%n", reads.get(), beforeKill, whileDown, failures.size(),
            health.fallbacks(ReplicaHealth.Fallback.FAILED), health.fallbacks(ReplicaHealth.Fallback.DOWN),
            health.fallbacks(ReplicaHealth.Fallback.UNKNOWN));
        assertEquals(List.of(), List.copyOf(failures), "no read failed or returned a wrong row");
        assertTrue(whileDown > 100, "reads went on while the replicas were down: " + whileDown);
      } finally {
        stop.set(true);
        for (int shard = 0; shard < 2; shard++) {
          if (!sandbox.replica(shard, 0).isRunning()) {
            sandbox.replica(shard, 0).start();
          }
          sandbox.replica(shard, 0).awaitCaughtUp();
        }
      }
    }
  }

  private static void readUntil(AtomicBoolean stop, AtomicLong reads, ConcurrentLinkedQueue<String> failures) {
    try (Connection c = DriverManager.getConnection(URL);
        PreparedStatement ps = c.prepareStatement("SELECT v FROM rk WHERE user_id = ?")) {
      for (int i = 0; !stop.get(); i++) {
        int user = 1 + i % USERS;
        ps.setInt(1, user);
        try (ResultSet rs = ps.executeQuery()) {
          String got = rs.next() ? rs.getString(1) : null;
          if (!("user" + user).equals(got)) {
            failures.add("user " + user + " read '" + got + "'");
          }
        } catch (SQLException e) {
          failures.add(e.getMessage());
        }
        reads.incrementAndGet();
      }
    } catch (SQLException e) {
      failures.add("connect: " + e.getMessage());
    }
  }

  private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(condition.getAsBoolean(), what + " within 60 s");
  }
}
