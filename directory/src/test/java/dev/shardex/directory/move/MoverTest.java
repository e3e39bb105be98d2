package dev.shardex.directory.move;

import static dev.shardex.directory.move.TestCluster.count;
import static dev.shardex.directory.move.TestCluster.onAllShards;
import static dev.shardex.directory.move.TestCluster.onShard;
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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The move protocol against a real 3-shard sandbox: copy, verify, flip, delete, and what stops it. */
class MoverTest {
  static final String POSTS = "SELECT id, author_id, body, CAST(created AS CHAR), CAST(score AS CHAR), HEX(tag), CAST(meta AS CHAR) "
      + "FROM posts WHERE author_id = ? ORDER BY id";
  static final String LIKES = "SELECT user_id, post_id, CAST(at AS CHAR) FROM likes WHERE user_id = ? ORDER BY post_id";

  DirectoryStore store;

  @BeforeEach
  void setUp() throws SQLException {
    store = TestCluster.fresh();
    createTables(store);
  }

  /** The posts and likes tables on every shard, declared SHARDED in the default key space. */
  static void createTables(DirectoryStore store) throws SQLException {
    onAllShards("CREATE TABLE posts (id BIGINT PRIMARY KEY, author_id BIGINT NOT NULL, body TEXT, created DATETIME(6), "
            + "score DOUBLE, tag VARBINARY(16), meta JSON, body_len INT AS (CHAR_LENGTH(body)) STORED, KEY (author_id))",
        "CREATE TABLE likes (user_id BIGINT NOT NULL, post_id BIGINT NOT NULL, at TIMESTAMP(6) NULL, PRIMARY KEY (user_id, post_id))");
    store.declareTable(TableDef.sharded("posts", "default", "author_id"));
    store.declareTable(TableDef.sharded("likes", "default", "user_id"));
  }

  /** Puts user {@code key} on {@code shard} with 3 posts and 2 likes, plus a bystander user 7 there. */
  static void seedUser(DirectoryStore store, long key, int shard) throws SQLException {
    store.assign("default", Long.toString(key), shard);
    onShard(shard,
        "INSERT INTO posts (id, author_id, body, created, score, tag, meta) VALUES "
            + "(" + (key * 10 + 1) + ", " + key + ", 'héllo ✓', '2024-02-29 23:59:59.123456', 0.1, UNHEX('00FF10'), '{\"a\": [1, 2]}'), "
            + "(" + (key * 10 + 2) + ", " + key + ", NULL, NULL, -1e300, NULL, NULL), "
            + "(" + (key * 10 + 3) + ", " + key + ", 'it''s', '1999-01-01 00:00:00', 3, '', '[]')",
        "INSERT INTO likes VALUES (" + key + ", 1, '2038-01-19 03:14:07.999999'), (" + key + ", 2, NULL)",
        "INSERT IGNORE INTO posts (id, author_id, body) VALUES (7001, 7, 'bystander')");
  }

  Mover mover(FaultHook faults) {
    return new Mover(store, TestCluster.connector(), MoveOptions.defaults().withAckTimeoutMs(2_000), faults);
  }

  @Test
  void move_copiesEveryTableAndDeletesTheSource() throws SQLException {
    seedUser(store, 42, 0);
    List<String> posts = rows(0, POSTS, 42);
    List<String> likes = rows(0, LIKES, 42);
    long before = store.lastChange();

    MoveRecord done = mover(FaultHook.NONE).move("default", "42", 1);

    assertEquals(MoveStep.DONE, done.step());
    assertEquals(5, done.rowCount());
    assertEquals(posts, rows(1, POSTS, 42));
    assertEquals(likes, rows(1, LIKES, 42));
    assertEquals(List.of(), rows(0, POSTS, 42));
    assertEquals(List.of(), rows(0, LIKES, 42));
    assertEquals(1, count(0, "SELECT COUNT(*) FROM posts WHERE author_id = 7"), "other users stay");
    Placement p = store.lookup("default", "42");
    assertEquals(1, p.shardId());
    assertEquals(KeyState.ACTIVE, p.state());
    assertEquals(before + 5, store.lastChange(), "freeze and flip are logged, and the COPYING, FLIPPED and DONE announcements");
  }

  @Test
  void move_refusesWhenTheDestinationAlreadyHoldsTheKey() throws SQLException {
    seedUser(store, 42, 0);
    onShard(2, "INSERT INTO likes VALUES (42, 99, NULL)");
    SQLException e = assertThrows(SQLException.class, () -> mover(FaultHook.NONE).move("default", "42", 2));
    assertTrue(ShardexError.MOVE_REFUSED.is(e), e.getMessage());
    assertEquals(new Placement(0, KeyState.ACTIVE, 1), store.lookup("default", "42"));
  }

  @Test
  void rogueWriteAfterTheCopy_rollsBackBeforeTheFlip() throws SQLException {
    seedUser(store, 42, 0);
    FaultHook rogue = (step, m) -> {
      if (step == MoveStep.COPIED) {
        rogueInsert(0, 42);
      }
    };
    SQLException e = assertThrows(SQLException.class, () -> mover(rogue).move("default", "42", 1));
    assertTrue(ShardexError.COPY_MISMATCH.is(e), e.getMessage());
    assertEquals(4, rows(0, POSTS, 42).size(), "the source keeps everything, the rogue row too");
    assertEquals(0, rows(1, POSTS, 42).size() + rows(1, LIKES, 42).size(), "the copy is gone");
    assertEquals(KeyState.ACTIVE, store.lookup("default", "42").state());
    assertEquals(0, store.lookup("default", "42").shardId());
    assertEquals(MoveStep.ABORTED, new MoveJournal(store).list(false, 1).get(0).step());
  }

  @Test
  void rogueWriteAfterTheFlip_stopsTheMoveBeforeDeletingAnything() throws SQLException {
    seedUser(store, 42, 0);
    FaultHook rogue = (step, m) -> {
      if (step == MoveStep.FLIP_DRAINED) {
        rogueInsert(0, 42);
      }
    };
    SQLException e = assertThrows(SQLException.class, () -> mover(rogue).move("default", "42", 1));
    assertTrue(ShardexError.SOURCE_CHANGED.is(e), e.getMessage());
    assertEquals(4, rows(0, POSTS, 42).size(), "nothing deleted on the source");
    assertEquals(2, rows(0, LIKES, 42).size());
    assertEquals(3, rows(1, POSTS, 42).size());
    assertEquals(new Placement(1, KeyState.ACTIVE, 3), store.lookup("default", "42"));
    MoveRecord m = new MoveJournal(store).list(false, 1).get(0);
    assertEquals(MoveStep.STOPPED, m.step());
    assertTrue(m.detail().contains("nothing deleted"), m.detail());
  }

  /**
   * Writes between the pre-copy and the freeze (the key is ACTIVE on the source: legitimate), plus
   * a rogue change to the draft on the destination: the copy under FROZEN fixes both with a delta.
   */
  @Test
  void writesAfterThePrecopy_areCarriedByTheDelta() throws SQLException {
    seedUser(store, 42, 0);
    List<String> copied = new java.util.ArrayList<>();
    FaultHook between = (step, m) -> {
      if (step == MoveStep.COPIED) {
        copied.add(m.detail());
      }
      if (step == MoveStep.PRECOPIED) {
        try {
          onShard(0, "UPDATE posts SET body = 'edited', score = 2.5 WHERE id = 421",
              "DELETE FROM posts WHERE id = 422",
              "INSERT INTO posts (id, author_id, body, tag) VALUES (425, 42, 'new', UNHEX('AB'))",
              "DELETE FROM likes WHERE user_id = 42 AND post_id = 2",
              "INSERT INTO likes VALUES (42, 3, '2001-01-01 00:00:00.5')");
          onShard(1, "UPDATE posts SET body = 'tampered' WHERE id = 423",
              "INSERT INTO posts (id, author_id, body) VALUES (429, 42, 'stray')");
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      }
    };
    MoveRecord done = mover(between).move("default", "42", 1);
    List<String> posts = rows(1, POSTS, 42);
    assertEquals(MoveStep.DONE, done.step());
    assertEquals(List.of(), rows(0, POSTS, 42));
    assertEquals(3, posts.size(), posts.toString());
    assertTrue(posts.get(0).startsWith("421|42|edited|") && posts.get(2).startsWith("425|42|new|"), posts.toString());
    assertTrue(posts.get(1).startsWith("423|42|it's|"), posts.toString());
    assertEquals(List.of("42|1|2038-01-19 03:14:07.999999", "42|3|2001-01-01 00:00:00.500000"), rows(1, LIKES, 42));
    assertEquals(5, done.rowCount());
    assertEquals(1, count(1, "SELECT COUNT(*) FROM posts WHERE body = 'edited'"));
    assertEquals(List.of("copied the delta (1 row(s) unchanged, 5 deleted, 4 inserted) and verified 5 rows, sha256 "
        + done.checksum().substring(0, 12)), copied);
  }

  /** A table without a primary key is replaced whole; a FLOAT primary key the delta cannot match falls back to the full copy. */
  @Test
  void tablesTheDeltaCannotMatch_areCopiedInFull() throws SQLException {
    onAllShards("CREATE TABLE tags (user_id BIGINT NOT NULL, label VARCHAR(20), KEY (user_id))",
        "CREATE TABLE scores (user_id BIGINT NOT NULL, f FLOAT NOT NULL, note VARCHAR(10), PRIMARY KEY (user_id, f))");
    store.declareTable(TableDef.sharded("tags", "default", "user_id"));
    store.declareTable(TableDef.sharded("scores", "default", "user_id"));
    seedUser(store, 42, 0);
    onShard(0, "INSERT INTO tags VALUES (42, 'a'), (42, 'a'), (42, 'b')", "INSERT INTO scores VALUES (42, 0.1, 'x'), (42, 2, 'y')");
    List<String> copied = new java.util.ArrayList<>();
    FaultHook between = (step, m) -> {
      if (step == MoveStep.COPIED) {
        copied.add(m.detail());
      }
      if (step == MoveStep.PRECOPIED) {
        try {
          onShard(0, "DELETE FROM tags WHERE label = 'b'", "INSERT INTO tags VALUES (42, 'c')",
              "UPDATE scores SET note = 'z' WHERE user_id = 42");
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      }
    };
    MoveRecord done = mover(between).move("default", "42", 1);
    assertEquals(MoveStep.DONE, done.step());
    assertEquals(List.of("a", "a", "c"), rows(1, "SELECT label FROM tags WHERE user_id = ? ORDER BY label", 42));
    assertEquals(List.of("z", "z"), rows(1, "SELECT note FROM scores WHERE user_id = ? ORDER BY f", 42));
    assertEquals(0, count(0, "SELECT COUNT(*) FROM tags") + count(0, "SELECT COUNT(*) FROM scores"));
    assertEquals(5 + 3 + 2, done.rowCount());
    assertTrue(copied.get(0).startsWith("the delta did not verify; copied in full"), copied.toString());
  }

  static void rogueInsert(int shard, long key) {
    try {
      onShard(shard, "INSERT INTO posts (id, author_id, body) VALUES (" + (key * 10 + 9) + ", " + key + ", 'rogue')");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
