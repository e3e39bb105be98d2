package dev.shardex.driver.moves;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryStore.ClientState;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveRecord;
import dev.shardex.directory.move.MoveStep;
import dev.shardex.directory.move.Mover;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.TestCluster;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Acceptance (issue 4, "stale client"): a driver whose polling has stopped ({@code shardex.autoPoll=false},
 * it never polls after start unless told) cannot write once {@code shardex.leaseMs} has passed since
 * its last successful poll, and a move of a key it wrote does not wait for it forever: the mover
 * skips clients whose heartbeat is older than lease + margin. Real time, small lease (500 ms).
 */
class StaleClientTest {
  static final String URL = ConcurrentWriterAuditTest.URL;
  static final long LEASE_MS = 500;
  static final long MARGIN_MS = 200;
  static final long ACK_TIMEOUT_MS = 10_000;
  static final long USER_A = 9_001;
  static final long USER_B = 9_002;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void staleDriverCannotWriteAfterItsLeaseAndMovesDoNotWaitForIt() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared(ConcurrentWriterAuditTest.NAME, ConcurrentWriterAuditTest.SHARDS);
    List<String> notes = new ArrayList<>();
    Connection live = DriverManager.getConnection(URL + "&shardex.instance=stale-live&shardex.pollMs=100&shardex.leaseMs=" + LEASE_MS);
    Connection stale = DriverManager.getConnection(URL + "&shardex.instance=stale&shardex.autoPoll=false&shardex.leaseMs=" + LEASE_MS);
    try (HikariDataSource pool = MoveTestSupport.directoryPool(sandbox, "stale-directory", 8)) {
      DirectoryStore store = MoveTestSupport.store(pool);
      try (Statement s = live.createStatement()) {
        s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS stale_rows (id BIGINT PRIMARY KEY, "
            + "user_id BIGINT NOT NULL, v INT NOT NULL, KEY (user_id))");
        for (long user : new long[] {USER_A, USER_B}) {
          for (int i = 0; i < 20; i++) {
            s.executeUpdate("INSERT INTO stale_rows (id, user_id, v) VALUES (" + (user * 100 + i) + ", " + user + ", 0)");
          }
        }
      }

      Directory staleDir = TestCluster.cluster(stale).directory();
      Mover mover = new Mover(store, MoveTestSupport.connector(sandbox),
          MoveOptions.defaults().withLease(LEASE_MS, MARGIN_MS).withAckTimeoutMs(ACK_TIMEOUT_MS), FaultHook.NONE);

      // ---- 1. within its lease the stale driver writes; once it lapses, writes fail with SHX1407 -------
      staleDir.pollNow();
      long polledAt = System.nanoTime();
      assertEquals(1, update(stale, USER_A * 100, USER_A, 1), "a write within the lease");
      assertEquals(0, count(stale, USER_B), "a read of user B (caches B's placement in the stale driver)");
      sleepUntil(polledAt, LEASE_MS + 100);
      SQLException refused = assertThrows(SQLException.class, () -> update(stale, USER_A * 100, USER_A, 2));
      assertEquals("57S01", refused.getSQLState(), refused.getMessage());
      assertInstanceOf(SQLTransientConnectionException.class, refused);
      assertTrue(refused.getMessage().contains("SHX1407"), refused.getMessage());
      SQLException refusedInsert = assertThrows(SQLException.class,
          () -> stale.createStatement().executeUpdate("INSERT INTO stale_rows (id, user_id, v) VALUES (" + (USER_A * 100 + 99) + ", " + USER_A + ", 5)"));
      assertEquals("57S01", refusedInsert.getSQLState(), refusedInsert.getMessage());
      notes.add("lapsed write refused: " + MoveTestSupport.firstLine(refused));

      // ---- 2. a move of a key the stale driver wrote is not held up by it -----------------------------
      int fromA = store.lookup(KeySpace.DEFAULT, Long.toString(USER_A)).shardId();
      int toA = (fromA + 1) % ConcurrentWriterAuditTest.SHARDS;
      long heartbeatAge = client(store, staleDir.clientId()).heartbeatAgeMs();
      long t0 = System.nanoTime();
      MoveRecord movedA = mover.move(KeySpace.DEFAULT, Long.toString(USER_A), toA);
      long moveAms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals(MoveStep.DONE, movedA.step(), movedA.detail());
      ClientState staleState = client(store, staleDir.clientId());
      assertTrue(staleState.appliedChange() < movedA.changeId(),
          "the stale driver never acknowledged the move (it was skipped, not waited for): " + staleState);
      assertTrue(moveAms < ACK_TIMEOUT_MS / 2, "the move took " + moveAms + " ms: it must not wait out the ack timeout");
      notes.add(String.format("move 1 (user %d, %d -> %d) started with the stale heartbeat %d ms old: DONE in %d ms; "
          + "stale client at change %d, move's last change %d", USER_A, fromA, toA, heartbeatAge, moveAms,
          staleState.appliedChange(), movedA.changeId()));
      assertEquals(20, TestClusterRows.count(sandbox, toA, USER_A), "every row of user A on its new shard");
      assertEquals(0, TestClusterRows.count(sandbox, fromA, USER_A), "none left behind");
      assertEquals("1", TestClusterRows.value(sandbox, toA, USER_A * 100), "the stale driver's acknowledged write moved along");

      // still refused, for any key, until it polls again
      SQLException still = assertThrows(SQLException.class, () -> update(stale, USER_B * 100, USER_B, 3));
      assertTrue(still.getMessage().contains("SHX1407"), still.getMessage());
      // reads go on from the stale cache (DESIGN: "reads go on from cache"); they still name the old shard
      int staleRead = countAll(stale, USER_A);
      notes.add("stale driver reads user A after the move from its cache: " + staleRead + " row(s) (20 exist, on shard "
          + toA + "; its cache still says shard " + fromA + ")");

      // the live driver follows the move at once and writes to the new owner
      assertEquals(1, update(live, USER_A * 100 + 1, USER_A, 7));
      assertEquals("7", TestClusterRows.value(sandbox, toA, USER_A * 100 + 1));

      // ---- 3. a move that starts while the stale driver's lease is still valid waits for it, bounded ---
      // The stale driver polls (lease and heartbeat fresh), then stops again. The move freezes B; the
      // stale driver has not seen the freeze and writes B on its old shard within its lease; the mover
      // waits until its heartbeat is lease + margin old, so that write is copied, not lost.
      int fromB = store.lookup(KeySpace.DEFAULT, Long.toString(USER_B)).shardId();
      int toB = (fromB + 1) % ConcurrentWriterAuditTest.SHARDS;
      assertEquals(20, countAll(stale, USER_B), "the stale driver has B's placement cached");
      long t1 = System.nanoTime();
      CompletableFuture<MoveRecord> moveB = CompletableFuture.supplyAsync(() -> {
        try {
          return mover.move(KeySpace.DEFAULT, Long.toString(USER_B), toB);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      // The move first announces its pre-copy (for key-less reads) and waits for it to be applied:
      // the stale driver polls once it is journaled, so its lease is fresh when the freeze comes.
      while (new dev.shardex.directory.move.MoveJournal(store).list(true, 10).stream()
          .noneMatch(m -> m.key().equals(Long.toString(USER_B)) && m.step() != MoveStep.PLANNED)) {
        Thread.sleep(2);
      }
      staleDir.pollNow();
      long polledAgain = System.nanoTime();
      while (!store.lookup(KeySpace.DEFAULT, Long.toString(USER_B)).frozen()) {
        assertTrue(!moveB.isDone(), "the move ended before it froze the key: " + (moveB.isDone() ? moveB.join() : ""));
        Thread.sleep(2);
      }
      long frozenAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - polledAgain);
      int written = update(stale, USER_B * 100, USER_B, 11); // within the lease, from the stale cache
      long wroteAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - polledAgain);
      assertEquals(1, written, "a write within the lease, routed from the cache to the old shard");
      assertTrue(wroteAfter < LEASE_MS, "the write ran within the lease (" + wroteAfter + " ms)");
      MoveRecord movedB = moveB.get(ACK_TIMEOUT_MS + 5_000, TimeUnit.MILLISECONDS);
      long moveBms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);
      assertEquals(MoveStep.DONE, movedB.step(), movedB.detail());
      assertTrue(moveBms >= LEASE_MS, "the move waited for the stale driver's lease to run out (" + moveBms + " ms)");
      assertTrue(moveBms < ACK_TIMEOUT_MS / 2, "but not for ever: " + moveBms + " ms");
      assertEquals(20, TestClusterRows.count(sandbox, toB, USER_B));
      assertEquals(0, TestClusterRows.count(sandbox, fromB, USER_B));
      assertEquals("11", TestClusterRows.value(sandbox, toB, USER_B * 100), "the stale driver's in-lease write was copied");
      notes.add(String.format("move 2 (user %d, %d -> %d): frozen %d ms after the stale driver's poll, stale write "
          + "landed at %d ms (old shard), move DONE in %d ms, the write is on the new shard", USER_B, fromB, toB,
          frozenAfter, wroteAfter, moveBms));

      // ---- 4. once it polls again the stale driver is current: writes go to the new owners ------------
      staleDir.pollNow();
      assertEquals(1, update(stale, USER_A * 100 + 2, USER_A, 21));
      assertEquals(1, update(stale, USER_B * 100 + 2, USER_B, 22));
      assertEquals("21", TestClusterRows.value(sandbox, toA, USER_A * 100 + 2));
      assertEquals("22", TestClusterRows.value(sandbox, toB, USER_B * 100 + 2));
      Placement a = store.lookup(KeySpace.DEFAULT, Long.toString(USER_A));
      assertEquals(KeyState.ACTIVE, a.state());
      assertNotEquals(fromA, a.shardId());

      System.out.println("\n==== Stale client ====");
      notes.forEach(n -> System.out.println("  " + n));
    } finally {
      // Close both instances: their client rows go, so no later move (the audit) looks at them.
      TestCluster.cluster(stale).close();
      stale.close();
      TestCluster.cluster(live).close();
      live.close();
    }
  }

  static int update(Connection c, long id, long user, int v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE stale_rows SET v = ? WHERE id = ? AND user_id = ?")) {
      ps.setInt(1, v);
      ps.setLong(2, id);
      ps.setLong(3, user);
      return ps.executeUpdate();
    }
  }

  /** Rows of the user with v = 1, through the driver (a read: never refused). */
  static int count(Connection c, long user) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM stale_rows WHERE user_id = ? AND v = 1")) {
      ps.setLong(1, user);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  static int countAll(Connection c, long user) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM stale_rows WHERE user_id = ?")) {
      ps.setLong(1, user);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  static ClientState client(DirectoryStore store, String id) throws SQLException {
    return store.clients().stream().filter(c -> c.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no client row for " + id));
  }

  static void sleepUntil(long startNanos, long ms) throws InterruptedException {
    long left = ms - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    if (left > 0) {
      Thread.sleep(left);
    }
  }

  /** Direct reads of stale_rows on one shard. */
  static final class TestClusterRows {
    static long count(SandboxCluster sandbox, int shard, long user) throws SQLException {
      try (Connection c = sandbox.connectShard(shard);
          PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM stale_rows WHERE user_id = ?")) {
        ps.setLong(1, user);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    }

    static String value(SandboxCluster sandbox, int shard, long id) throws SQLException {
      try (Connection c = sandbox.connectShard(shard);
          PreparedStatement ps = c.prepareStatement("SELECT v FROM stale_rows WHERE id = ?")) {
        ps.setLong(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? rs.getString(1) : null;
        }
      }
    }
  }
}
