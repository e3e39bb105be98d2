package dev.shardex.directory.move;

import static dev.shardex.directory.move.MoverTest.LIKES;
import static dev.shardex.directory.move.MoverTest.POSTS;
import static dev.shardex.directory.move.TestCluster.count;
import static dev.shardex.directory.move.TestCluster.onAllShards;
import static dev.shardex.directory.move.TestCluster.onShard;
import static dev.shardex.directory.move.TestCluster.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The copy under FROZEN from the source's change record: writes made outside Shardex (a plain
 * client on the source shard) while the key moves are recorded by the source's triggers and land
 * on the destination; nothing is left behind on either shard.
 */
class ChangeCaptureTest {
  DirectoryStore store;

  @BeforeEach
  void setUp() throws SQLException {
    store = TestCluster.fresh();
    MoverTest.createTables(store);
  }

  @Test
  void outsideWrites_duringTheMove_areCarriedByTheChangeRecord() throws SQLException {
    MoverTest.seedUser(store, 42, 0);
    Map<MoveStep, String> details = new ConcurrentHashMap<>();
    List<List<String>> sourceWhenCopied = new ArrayList<>();
    FaultHook outside = (step, m) -> {
      details.put(step, m.detail() == null ? "" : m.detail());
      try {
        switch (step) {
          case PRECOPIED -> onShard(0, "UPDATE posts SET body = 'after the pre-copy' WHERE id = 421",
              "INSERT INTO likes VALUES (42, 3, '2001-01-01 00:00:00.5')");
          case FROZEN -> onShard(0, "DELETE FROM posts WHERE id = 422", "UPDATE likes SET at = NULL WHERE user_id = 42 AND post_id = 1");
          case DRAINED -> onShard(0, "INSERT INTO posts (id, author_id, body, tag) VALUES (425, 42, 'while frozen', UNHEX('AB'))",
              "UPDATE posts SET body = 'other user' WHERE id = 7001");
          case COPYING -> sourceWhenCopied.add(List.copyOf(sourceRows()));
          default -> { }
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    };
    MoveRecord done = new Mover(store, TestCluster.connector(), MoveOptions.defaults().withAckTimeoutMs(2_000).withCaptureMinRows(0), outside)
        .move("default", "42", 1);

    assertEquals(MoveStep.DONE, done.step());
    assertTrue(details.get(MoveStep.PRECOPIED).contains("caught up from the change record"), details.get(MoveStep.PRECOPIED));
    assertTrue(details.get(MoveStep.COPIED).startsWith("applied 5 change record(s)"), details.get(MoveStep.COPIED));
    List<String> moved = new ArrayList<>(rows(1, POSTS, 42));
    moved.addAll(rows(1, LIKES, 42));
    assertEquals(sourceWhenCopied.get(0), moved, "the destination holds the source as it was when frozen");
    assertTrue(moved.get(0).startsWith("421|42|after the pre-copy|") && moved.get(2).startsWith("425|42|while frozen|"), moved.toString());
    assertEquals(6, done.rowCount(), "posts 421, 423, 425 and likes 1, 2, 3");
    assertEquals(List.of(), rows(0, POSTS, 42));
    assertEquals(List.of(), rows(0, LIKES, 42));
    for (int shard : new int[] {0, 1}) {
      assertEquals(0, count(shard, "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()"),
          "no trigger left on shard " + shard);
      assertEquals(0, count(shard, "SELECT COUNT(*) FROM shardex_changes"), "no change record left on shard " + shard);
    }
  }

  @Test
  void aPrimaryKeyWithATimestamp_isNotRecorded_andTheMoveReadsBothSides() throws SQLException {
    onAllShards("CREATE TABLE visits (user_id BIGINT NOT NULL, at TIMESTAMP(6) NOT NULL, PRIMARY KEY (user_id, at))");
    store.declareTable(TableDef.sharded("visits", "default", "user_id"));
    MoverTest.seedUser(store, 42, 0);
    onShard(0, "INSERT INTO visits VALUES (42, '2020-01-01 00:00:00')");
    List<String> precopied = new ArrayList<>();
    FaultHook hook = (step, m) -> {
      if (step == MoveStep.PRECOPIED) {
        precopied.add(m.detail());
      }
    };
    MoveRecord done = new Mover(store, TestCluster.connector(), MoveOptions.defaults().withAckTimeoutMs(2_000).withCaptureMinRows(0), hook)
        .move("default", "42", 1);
    assertEquals(MoveStep.DONE, done.step());
    assertEquals(6, done.rowCount(), "3 posts, 2 likes, 1 visit");
    assertTrue(precopied.get(0).contains("no change record: table visits"), precopied.toString());
  }

  @Test
  void aSmallUser_isMovedWithoutTheRecord() throws SQLException {
    MoverTest.seedUser(store, 42, 0);
    List<String> precopied = new ArrayList<>();
    FaultHook hook = (step, m) -> {
      if (step == MoveStep.PRECOPIED) {
        precopied.add(m.detail());
      }
    };
    MoveRecord done = new Mover(store, TestCluster.connector(), MoveOptions.defaults().withAckTimeoutMs(2_000), hook)
        .move("default", "42", 1);
    assertEquals(MoveStep.DONE, done.step());
    assertTrue(precopied.get(0).contains("no change record: 5 row(s), fewer than 2000"), precopied.toString());
    assertEquals(0, count(0, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
        + "AND TABLE_NAME = 'shardex_changes'"), "no trigger was installed, so no record table either");
  }

  @Test
  void aRecordedUserOfSeveralPages_isDeletedFromTheSourcePageByPage() throws SQLException {
    MoverTest.seedUser(store, 42, 0);
    onShard(0, "INSERT INTO posts (id, author_id, body) SELECT 100000 + seq, 42, CONCAT('bulk ', seq) FROM seq_1_to_2500");
    List<String> before = sourceRows();
    MoveRecord done = mover(FaultHook.NONE).move("default", "42", 1);

    assertEquals(MoveStep.DONE, done.step());
    assertTrue(done.detail().contains("deleted 2505 from the source in 4 page(s)"), done.detail()); // posts 1000 + 1000 + 503, likes 2
    assertEquals(before, movedRows(), "every row, once, on the destination");
    assertEquals(List.of(), sourceRows(), "nothing of the user left on the source");
    assertEquals(1, rows(0, POSTS, 7).size(), "the bystander stays");
  }

  @Test
  void aPacedPreCopy_sleepsBetweenBatches_andMovesEveryRow() throws SQLException {
    MoverTest.seedUser(store, 42, 0);
    onShard(0, "INSERT INTO posts (id, author_id, body) SELECT 100000 + seq, 42, CONCAT('bulk ', seq) FROM seq_1_to_2500");
    List<String> before = sourceRows();
    List<String> precopied = new ArrayList<>();
    FaultHook hook = (step, m) -> {
      if (step == MoveStep.PRECOPIED) {
        precopied.add(m.detail());
      }
    };
    MoveRecord done = new Mover(store, TestCluster.connector(), MoveOptions.defaults().withAckTimeoutMs(2_000).withCaptureMinRows(0)
        .withNiceRatio(1.0), hook).move("default", "42", 1);

    assertEquals(MoveStep.DONE, done.step());
    assertTrue(precopied.get(0).matches("pre-copied 2505 rows, sha256 \\w+ \\(nice ratio 1\\.0: slept \\d+ ms\\), caught up from the change record.*"),
        precopied.toString());
    assertEquals(before, movedRows(), "every row, once, on the destination");
    assertEquals(List.of(), sourceRows(), "nothing of the user left on the source");
  }

  @Test
  void aRogueWriteAfterTheFlip_stopsThePagedDeleteBeforeItDeletesAnything() throws SQLException {
    MoverTest.seedUser(store, 42, 0);
    FaultHook rogue = (step, m) -> {
      if (step == MoveStep.FLIP_DRAINED) {
        try {
          onShard(0, "UPDATE posts SET body = 'rogue, after the flip' WHERE id = 421");
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      }
    };
    SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> mover(rogue).move("default", "42", 1));
    assertTrue(dev.shardex.vocabulary.ShardexError.SOURCE_CHANGED.is(e), e.getMessage());
    assertEquals(3, rows(0, POSTS, 42).size(), "nothing deleted on the source, the rogue write kept");
    assertTrue(rows(0, POSTS, 42).get(0).contains("rogue, after the flip"), rows(0, POSTS, 42).toString());
    MoveRecord m = new MoveJournal(store).list(false, 1).get(0);
    assertEquals(MoveStep.STOPPED, m.step());
    assertTrue(m.detail().contains("nothing deleted"), m.detail());
    assertEquals(0, count(0, "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()"),
        "the stopped move's triggers are dropped");
  }

  /**
   * The catch-up carries the destination's digest forward instead of reading each row back; before
   * the freeze the server's digest of the destination must equal it. Here a destination row is
   * changed behind the mover's back (a session that the triggers do not record, as a row stored
   * otherwise than read would be) right before that check: the digest disagrees, and the move must
   * fall back to reading both sides in full and end with the destination equal to the source.
   */
  @Test
  void aDestinationThatDisagreesWithTheCarriedDigest_fallsBackToAFullReadOfBothSides() throws SQLException {
    MoverTest.seedUser(store, 42, 0);
    java.util.concurrent.atomic.AtomicInteger digests = new java.util.concurrent.atomic.AtomicInteger();
    ShardConnector base = TestCluster.connector();
    ShardConnector meddling = shard -> {
      java.sql.Connection c = base.connect(shard);
      if (shard != 1) {
        return c;
      }
      return (java.sql.Connection) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {java.sql.Connection.class}, (proxy, method, args) -> {
            // the 3rd and 4th digest statements on the destination are the check after the rounds
            // (the 1st and 2nd, one per table, took the pre-copy's digest)
            if (method.getName().equals("prepareStatement") && ((String) args[0]).startsWith("SELECT COUNT(*), CAST(BIT_XOR(")
                && digests.incrementAndGet() == 3) {
              onShard(1, "SET @" + CaptureSql.OFF + " = 1", "UPDATE posts SET body = 'changed behind the mover' WHERE id = 421");
              onShard(0, "UPDATE posts SET body = 'source, during the catch-up' WHERE id = 423");
            }
            try {
              return method.invoke(c, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
              throw e.getCause();
            }
          });
    };
    Map<MoveStep, String> details = new ConcurrentHashMap<>();
    List<List<String>> sourceWhenCopied = new ArrayList<>();
    FaultHook hook = (step, m) -> {
      details.put(step, m.detail() == null ? "" : m.detail());
      if (step == MoveStep.COPYING) {
        try {
          sourceWhenCopied.add(List.copyOf(sourceRows()));
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      }
    };
    MoveRecord done = new Mover(store, meddling, MoveOptions.defaults().withAckTimeoutMs(2_000).withCaptureMinRows(0), hook)
        .move("default", "42", 1);

    assertEquals(MoveStep.DONE, done.step());
    assertTrue(digests.get() >= 3, "the destination's digest was checked after the rounds: " + digests.get());
    String precopied = details.get(MoveStep.PRECOPIED);
    assertTrue(precopied.contains("caught up (") && !precopied.contains("from the change record"), precopied);
    List<String> moved = movedRows();
    assertEquals(sourceWhenCopied.get(0), moved, "the destination holds the source as it was when frozen");
    assertTrue(moved.get(0).startsWith("421|42|héllo ✓|") && moved.get(2).startsWith("423|42|source, during the catch-up|"),
        moved.toString());
    assertEquals(List.of(), sourceRows(), "nothing of the user left on the source");
  }

  private Mover mover(FaultHook hook) {
    return new Mover(store, TestCluster.connector(), MoveOptions.defaults().withAckTimeoutMs(2_000).withCaptureMinRows(0), hook);
  }

  private static List<String> movedRows() throws SQLException {
    List<String> all = new ArrayList<>(rows(1, POSTS, 42));
    all.addAll(rows(1, LIKES, 42));
    return all;
  }

  private static List<String> sourceRows() throws SQLException {
    List<String> all = new ArrayList<>(rows(0, POSTS, 42));
    all.addAll(rows(0, LIKES, 42));
    return all;
  }
}
