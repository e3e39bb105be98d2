package dev.shardex.directory.move;

import static dev.shardex.directory.move.MoverTest.LIKES;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Crash injection: the mover "dies" right after each journal step in turn, then a fresh mover
 * resumes the move. Every run ends with the key ACTIVE on exactly one shard, its rows there exactly
 * once, and none left behind.
 */
class MoverCrashTest {
  static DirectoryStore store;

  @BeforeAll
  static void setUp() throws SQLException {
    store = TestCluster.fresh();
    onAllShards("CREATE TABLE posts (id BIGINT PRIMARY KEY, author_id BIGINT NOT NULL, body TEXT, created DATETIME(6), "
            + "score DOUBLE, tag VARBINARY(16), meta JSON, KEY (author_id))",
        "CREATE TABLE likes (user_id BIGINT NOT NULL, post_id BIGINT NOT NULL, at TIMESTAMP(6) NULL, PRIMARY KEY (user_id, post_id))");
    store.declareTable(TableDef.sharded("posts", "default", "author_id"));
    store.declareTable(TableDef.sharded("likes", "default", "user_id"));
  }

  /** Throws once, at {@code at}: what a killed process looks like to the journal. */
  static FaultHook crashAt(MoveStep at) {
    AtomicBoolean fired = new AtomicBoolean();
    return (step, m) -> {
      if (step == at && fired.compareAndSet(false, true)) {
        throw new IllegalStateException("injected crash after " + step);
      }
    };
  }

  @Test
  void crashAfterEachStep_thenResume_losesAndDuplicatesNothing() throws SQLException {
    List<String> failures = new ArrayList<>();
    long key = 100;
    for (MoveStep step : List.of(MoveStep.PRECOPYING, MoveStep.PRECOPIED, MoveStep.FROZEN, MoveStep.DRAINED, MoveStep.COPYING, MoveStep.COPIED, MoveStep.FLIPPED,
        MoveStep.FLIP_DRAINED, MoveStep.DELETING, MoveStep.DONE)) {
      key++;
      seedUser(store, key, 0);
      List<String> posts = rows(0, POSTS, key);
      List<String> likes = rows(0, LIKES, key);
      Mover crashing = new Mover(store, TestCluster.connector(), MoveOptions.defaults(), crashAt(step));
      long id = crashing.plan("default", Long.toString(key), 2);
      IllegalStateException crash = assertThrows(IllegalStateException.class, () -> crashing.run(id));
      assertTrue(crash.getMessage().contains(step.name()));
      assertEquals(step, crashing.journal().get(id).step(), "the journal shows the last step done");

      MoveRecord resumed = new Mover(store, TestCluster.connector()).resume(id);

      String at = "crash after " + step + ": ";
      check(failures, at + "step", MoveStep.DONE, resumed.step());
      check(failures, at + "placement", new Placement(2, KeyState.ACTIVE, 3), store.lookup("default", Long.toString(key)));
      check(failures, at + "posts on destination", posts, rows(2, POSTS, key));
      check(failures, at + "likes on destination", likes, rows(2, LIKES, key));
      check(failures, at + "posts left on source", List.of(), rows(0, POSTS, key));
      check(failures, at + "likes left on source", List.of(), rows(0, LIKES, key));
      check(failures, at + "rows on the third shard", List.of(), rows(1, POSTS, key));
    }
    assertEquals(List.of(), failures);
  }

  @Test
  void crashBeforeTheFlip_thenAbort_leavesTheKeyWhereItWas() throws SQLException {
    long key = 300;
    seedUser(store, key, 1);
    List<String> posts = rows(1, POSTS, key);
    Mover crashing = new Mover(store, TestCluster.connector(), MoveOptions.defaults(), crashAt(MoveStep.COPIED));
    long id = crashing.plan("default", Long.toString(key), 0);
    assertThrows(IllegalStateException.class, () -> crashing.run(id));
    assertEquals(KeyState.FROZEN, store.lookup("default", Long.toString(key)).state());
    assertEquals(3, rows(0, POSTS, key).size(), "the copy is on the destination");

    MoveRecord aborted = new Mover(store, TestCluster.connector()).abort(id);

    assertEquals(MoveStep.ABORTED, aborted.step());
    assertEquals(new Placement(1, KeyState.ACTIVE, 3), store.lookup("default", Long.toString(key)));
    assertEquals(posts, rows(1, POSTS, key));
    assertEquals(List.of(), rows(0, POSTS, key));
    assertEquals(List.of(), rows(0, LIKES, key));
  }

  /** The key was never frozen: aborting deletes the draft on the destination and logs no key change. */
  @Test
  void crashAfterThePrecopy_thenAbort_deletesTheDraft() throws SQLException {
    long key = 350;
    seedUser(store, key, 1);
    List<String> posts = rows(1, POSTS, key);
    Mover crashing = new Mover(store, TestCluster.connector(), MoveOptions.defaults(), crashAt(MoveStep.PRECOPIED));
    long id = crashing.plan("default", Long.toString(key), 0);
    assertThrows(IllegalStateException.class, () -> crashing.run(id));
    assertEquals(new Placement(1, KeyState.ACTIVE, 1), store.lookup("default", Long.toString(key)), "still ACTIVE, not frozen");
    assertEquals(posts, rows(0, POSTS, key), "the draft is on the destination");

    MoveRecord aborted = new Mover(store, TestCluster.connector()).abort(id);

    assertEquals(MoveStep.ABORTED, aborted.step());
    assertEquals(new Placement(1, KeyState.ACTIVE, 1), store.lookup("default", Long.toString(key)));
    assertEquals(posts, rows(1, POSTS, key));
    assertEquals(List.of(), rows(0, POSTS, key));
    assertEquals(List.of(), rows(0, LIKES, key));
  }

  @Test
  void abortAfterTheFlip_isRefused() throws SQLException {
    long key = 400;
    seedUser(store, key, 1);
    Mover crashing = new Mover(store, TestCluster.connector(), MoveOptions.defaults(), crashAt(MoveStep.FLIPPED));
    long id = crashing.plan("default", Long.toString(key), 0);
    assertThrows(IllegalStateException.class, () -> crashing.run(id));
    SQLException e = assertThrows(SQLException.class, () -> new Mover(store, TestCluster.connector()).abort(id));
    assertTrue(ShardexError.UNKNOWN_MOVE.is(e), e.getMessage());
    assertEquals(MoveStep.DONE, new Mover(store, TestCluster.connector()).resume(id).step());
  }

  @Test
  void secondMoveOfAKeyWithAnUnfinishedMove_isRefused() throws SQLException {
    long key = 500;
    seedUser(store, key, 1);
    Mover crashing = new Mover(store, TestCluster.connector(), MoveOptions.defaults(), crashAt(MoveStep.FLIP_DRAINED));
    long id = crashing.plan("default", Long.toString(key), 0);
    assertThrows(IllegalStateException.class, () -> crashing.run(id));
    SQLException e = assertThrows(SQLException.class,
        () -> new Mover(store, TestCluster.connector()).move("default", Long.toString(key), 1));
    assertTrue(ShardexError.MOVE_REFUSED.is(e), e.getMessage());
    assertTrue(e.getMessage().contains("moves resume " + id), e.getMessage());
    new Mover(store, TestCluster.connector()).resume(id);
  }

  private static void check(List<String> failures, String what, Object expected, Object actual) {
    if (!expected.equals(actual)) {
      failures.add(what + ": expected " + expected + " but was " + actual);
    }
  }
}
