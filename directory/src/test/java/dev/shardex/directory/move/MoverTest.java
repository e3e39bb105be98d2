package dev.shardex.directory.move;

import static dev.shardex.directory.move.TestCluster.count;
import static dev.shardex.directory.move.TestCluster.onAllShards;
import static dev.shardex.directory.move.TestCluster.onShard;
import static dev.shardex.directory.move.TestCluster.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.KeyState;
import dev.shardex.directory.Placement;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
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
    assertEquals(before + 2, store.lastChange(), "freeze and flip are logged");
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

  static void rogueInsert(int shard, long key) {
    try {
      onShard(shard, "INSERT INTO posts (id, author_id, body) VALUES (" + (key * 10 + 9) + ", " + key + ", 'rogue')");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
