package dev.shardex.driver.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveStep;
import dev.shardex.directory.move.Mover;
import dev.shardex.driver.TestCluster;
import dev.shardex.driver.execute.ReplicaHealth;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A user moved while the replicas lag by 2 s (MASTER_DELAY, lag known and within the bound): the
 * destination's replica does not have the copy yet, yet no read through replica_preferred ever misses
 * a row or sees one twice, by key or by scatter; replica reads resume once the replicas pass the move.
 */
@Timeout(180)
class ReplicaMoveTest {
  static final long USER = 9_001;

  @Test
  void aMoveWhileTheReplicasLag_neverHidesTheMovedUsersRows() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared(ReplicaCatalogTest.NAME, 2, 1);
    try (Connection c = DriverManager.getConnection(ReplicaRoutingTest.PREFERRED); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS rm (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL)");
      s.execute("DELETE FROM rm WHERE user_id = " + USER);
      for (int i = 0; i < 10; i++) {
        s.execute("INSERT INTO rm VALUES (" + (USER * 100 + i) + ", " + USER + ")");
      }
      DirectoryStore store = TestCluster.cluster(c).directory().store();
      int from = store.lookup(KeySpace.DEFAULT, Long.toString(USER)).shardId();
      for (int shard = 0; shard < 2; shard++) {
        sandbox.replica(shard, 0).awaitCaughtUp();
        sandbox.replica(shard, 0).delay(2);
      }
      try {
        ReplicaHealth health = TestCluster.cluster(c).replicaHealth();
        long served = health.replicaReads();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (health.replicaReads() < served + 5 && System.nanoTime() < deadline) {
          assertEquals(10, rows(s, "SELECT id FROM rm WHERE user_id = " + USER));
          Thread.sleep(50);
        }
        assertTrue(health.replicaReads() >= served + 5, "the delayed replicas (lag within 5 s) take reads before the move");
        long moving = health.fallbacks(ReplicaHealth.Fallback.MOVING);
        Mover mover = new Mover(store, sandbox::connectShard, MoveOptions.defaults().withAckTimeoutMs(10_000), FaultHook.NONE);
        CompletableFuture<MoveStep> move = CompletableFuture.supplyAsync(() -> {
          try {
            return mover.move(KeySpace.DEFAULT, Long.toString(USER), 1 - from).step();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
        int reads = 0;
        while (!move.isDone() || reads < 100) {
          assertEquals(10, rows(s, "SELECT id FROM rm WHERE user_id = " + USER), "keyed read, read " + reads);
          assertEquals(10, rows(s, "SELECT id FROM rm WHERE id BETWEEN " + USER * 100 + " AND " + (USER * 100 + 99)),
              "key-less read, read " + reads);
          reads++;
        }
        assertEquals(MoveStep.DONE, move.get());
        assertEquals(1 - from, store.lookup(KeySpace.DEFAULT, Long.toString(USER)).shardId());
        assertTrue(health.fallbacks(ReplicaHealth.Fallback.MOVING) > moving, "reads during and after the move went to primaries");
        long after = health.replicaReads();
        deadline = System.nanoTime() + 30_000_000_000L;
        while (health.replicaReads() < after + 5 && System.nanoTime() < deadline) {
          assertEquals(10, rows(s, "SELECT id FROM rm WHERE user_id = " + USER));
          Thread.sleep(50);
        }
        assertTrue(health.replicaReads() >= after + 5, "replica reads resume once the replicas have passed the move");
      } finally {
        for (int shard = 0; shard < 2; shard++) {
          sandbox.replica(shard, 0).delay(0);
          sandbox.replica(shard, 0).awaitCaughtUp();
        }
      }
    }
  }

  private static int rows(Statement s, String sql) throws SQLException {
    int n = 0;
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }
}
