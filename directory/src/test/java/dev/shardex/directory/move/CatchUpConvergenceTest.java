package dev.shardex.directory.move;

import static dev.shardex.directory.move.TestCluster.count;
import static dev.shardex.directory.move.TestCluster.onShard;
import static dev.shardex.directory.move.TestCluster.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A catch-up that falls behind its writers stops the move by name (SHX1612) instead of freezing
 * with the backlog: here a writer rewrites every row of the user in each statement (hundreds of
 * change records) while the catch-up applies 5 records a round.
 */
class CatchUpConvergenceTest {
  static final int POSTS = 300;
  DirectoryStore store;

  @BeforeEach
  void setUp() throws SQLException {
    store = TestCluster.fresh();
    MoverTest.createTables(store);
    MoverTest.seedUser(store, 42, 0);
    onShard(0, "INSERT INTO posts (id, author_id, body) SELECT 100000 + seq, 42, CONCAT('bulk ', seq) FROM seq_1_to_" + POSTS);
  }

  @Test
  void aCatchUpSlowerThanItsWriters_stopsTheMove_andALaterMoveSucceeds() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong writes = new AtomicLong();
    Thread writer = new Thread(() -> {
      try (Connection c = TestCluster.sandbox().connectShard(0); Statement s = c.createStatement()) {
        while (!stop.get()) {
          s.executeUpdate("UPDATE posts SET body = CONCAT('write ', " + writes.incrementAndGet() + ", ' of ', id) WHERE author_id = 42");
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }, "outpacing-writer");
    FaultHook startWriting = (step, m) -> {
      if (step == MoveStep.PRECOPYING) {
        writer.start(); // before the triggers and the pre-copy: every write from here is recorded
      }
    };
    MoveOptions slow = options().withCatchUp(new CatchUpLimits(5, 3, 600_000));
    SQLException e;
    try {
      e = assertThrows(SQLException.class, () -> new Mover(store, TestCluster.connector(), slow, startWriting).move("default", "42", 1));
    } finally {
      stop.set(true);
      writer.join(30_000);
    }

    assertTrue(ShardexError.CATCHUP_BEHIND.is(e), e.toString());
    assertEquals("HYT00", e.getSQLState());
    assertTrue(e.getMessage().contains("did not converge") && e.getMessage().contains("stays ACTIVE on shard 0"), e.getMessage());
    assertTrue(writes.get() > 3, "the writer wrote during the catch-up: " + writes.get());
    MoveRecord m = new MoveJournal(store).list(false, 1).get(0);
    assertEquals(MoveStep.ABORTED, m.step());
    assertTrue(m.detail().contains("SHX1612") && m.detail().startsWith("rolled back, ACTIVE on shard 0"), m.detail());
    Placement p = store.lookup("default", "42");
    assertEquals(0, p.shardId());
    assertEquals(KeyState.ACTIVE, p.state());
    assertEquals(POSTS + 3, rows(0, MoverTest.POSTS, 42).size(), "every row still on the source");
    assertEquals("write " + writes.get() + " of 100001", rows(0, "SELECT body FROM posts WHERE id = 100001").get(0),
        "the source has the last write");
    assertEquals(0, count(1, "SELECT COUNT(*) FROM posts WHERE author_id = 42") + count(1, "SELECT COUNT(*) FROM likes WHERE user_id = 42"),
        "the draft copy on the destination is removed");
    assertNothingLeft();

    List<String> before = rows(0, MoverTest.POSTS, 42);
    MoveRecord done = new Mover(store, TestCluster.connector(), options(), FaultHook.NONE).move("default", "42", 1);
    assertEquals(MoveStep.DONE, done.step(), done.detail());
    assertEquals(before, rows(1, MoverTest.POSTS, 42), "with the writes stopped, the move goes through");
    assertEquals(List.of(), rows(0, MoverTest.POSTS, 42));
    assertNothingLeft();
  }

  private static MoveOptions options() {
    return MoveOptions.defaults().withAckTimeoutMs(2_000).withCaptureMinRows(0);
  }

  private static void assertNothingLeft() throws SQLException {
    for (int shard : new int[] {0, 1}) {
      assertEquals(0, count(shard, "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()"),
          "no trigger left on shard " + shard);
      assertEquals(0, count(shard, "SELECT COUNT(*) FROM shardex_changes") + count(shard, "SELECT COUNT(*) FROM shardex_moving"),
          "no change record left on shard " + shard);
    }
  }
}
