package dev.shardex.directory.move;

import static dev.shardex.directory.move.MoverTest.POSTS;
import static dev.shardex.directory.move.MoverTest.seedUser;
import static dev.shardex.directory.move.TestCluster.onAllShards;
import static dev.shardex.directory.move.TestCluster.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which clients a move waits for: live ones until they ack, lapsed ones never (clients simulated in the table). */
class MoverAckTest {
  DirectoryStore store;

  @BeforeEach
  void setUp() throws SQLException {
    store = TestCluster.fresh();
    onAllShards("CREATE TABLE posts (id BIGINT PRIMARY KEY, author_id BIGINT NOT NULL, body TEXT, created DATETIME(6), "
        + "score DOUBLE, tag VARBINARY(16), meta JSON, KEY (author_id))");
    store.declareTable(TableDef.sharded("posts", "default", "author_id"));
    onAllShards("CREATE TABLE likes (user_id BIGINT NOT NULL, post_id BIGINT NOT NULL, at TIMESTAMP(6) NULL, PRIMARY KEY (user_id, post_id))");
    seedUser(store, 42, 0);
  }

  static void client(String id, String heartbeatAgo, long applied) throws SQLException {
    TestCluster.directory("INSERT INTO clients (id, info, heartbeat_at, applied_change) VALUES ('" + id + "', 'test', NOW(6) - INTERVAL "
        + heartbeatAgo + ", " + applied + ")");
  }

  Mover mover(long ackTimeoutMs) {
    return new Mover(store, TestCluster.connector(), MoveOptions.defaults().withAckTimeoutMs(ackTimeoutMs).withLease(2_000, 1_000),
        FaultHook.NONE);
  }

  @Test
  void clientWithALapsedLease_isNotWaitedFor() throws SQLException {
    client("stale", "1 HOUR", 0);
    long start = System.nanoTime();
    assertEquals(MoveStep.DONE, mover(5_000).move("default", "42", 1).step());
    assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 3_000, "did not wait for the stale client");
  }

  @Test
  void liveClientThatNeverAcks_timesOutAndTheMoveRollsBack() throws SQLException {
    client("silent", "0 SECOND", 0);
    SQLException e = assertThrows(SQLException.class, () -> mover(400).move("default", "42", 1));
    assertTrue(ShardexError.ACK_TIMEOUT.is(e), e.getMessage());
    assertTrue(e.getMessage().contains("silent"), e.getMessage());
    assertEquals("HYT00", e.getSQLState());
    assertEquals(KeyState.ACTIVE, store.lookup("default", "42").state());
    assertEquals(0, store.lookup("default", "42").shardId());
    assertEquals(MoveStep.ABORTED, new MoveJournal(store).list(false, 1).get(0).step());
    assertEquals(3, rows(0, POSTS, 42).size());
  }

  @Test
  void liveClientBehind_isWaitedForUntilItAcks() throws Exception {
    client("slow", "0 SECOND", 0);
    CompletableFuture<Void> acker = CompletableFuture.runAsync(() -> {
      try {
        // acks (and heartbeats) after 300 ms and again after 600 ms, as a polling driver would
        for (int i = 0; i < 2; i++) {
          Thread.sleep(300);
          TestCluster.directory("UPDATE clients SET heartbeat_at = NOW(6), applied_change = "
              + "(SELECT last_change FROM change_counter WHERE id = 1) WHERE id = 'slow'");
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    long start = System.nanoTime();
    MoveRecord done = mover(5_000).move("default", "42", 1);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    acker.get();
    assertEquals(MoveStep.DONE, done.step());
    assertTrue(tookMs >= 280, "waited for the slow client, took " + tookMs + " ms");
    assertEquals(new Placement(1, KeyState.ACTIVE, 3), store.lookup("default", "42"));
  }
}
