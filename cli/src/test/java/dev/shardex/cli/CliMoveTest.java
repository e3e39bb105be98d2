package dev.shardex.cli;

import static dev.shardex.cli.CliRunner.run;
import static dev.shardex.directory.move.TestCluster.count;
import static dev.shardex.directory.move.TestCluster.onAllShards;
import static dev.shardex.directory.move.TestCluster.onShard;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.CliRunner.Result;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveStep;
import dev.shardex.directory.move.Mover;
import dev.shardex.directory.move.TestCluster;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** users, moves, verify and rebalance through the real commands, against the clitest sandbox. */
class CliMoveTest {
  DirectoryStore store;

  @BeforeEach
  void setUp() throws SQLException {
    store = TestCluster.fresh();
    onAllShards("CREATE TABLE posts (id BIGINT PRIMARY KEY, author_id BIGINT NOT NULL, body TEXT, KEY (author_id))",
        "CREATE TABLE countries (code CHAR(2) PRIMARY KEY, name VARCHAR(64))");
    store.declareTable(TableDef.sharded("posts", "default", "author_id"));
    store.declareTable(TableDef.global("countries"));
  }

  /** User {@code key} on {@code shard} with {@code posts} posts. */
  void user(long key, int shard, int posts) throws SQLException {
    store.assign("default", Long.toString(key), shard);
    for (int i = 0; i < posts; i++) {
      onShard(shard, "INSERT INTO posts VALUES (" + (key * 1000 + i) + ", " + key + ", 'post " + i + "')");
    }
  }

  @Test
  void usersLocateAndMove() throws SQLException {
    user(42, 0, 3);
    Result where = run("users", "locate", "42");
    assertEquals("key 42 (key space default): shard 0, ACTIVE, version 1\n  posts: 3 row(s)\n", where.out(), where.toString());

    Result moved = run("users", "move", "42", "--to", "1");
    assertEquals(0, moved.code(), moved.toString());
    assertTrue(moved.out().matches("Moved key 42 \\(key space default\\) from shard 0 to shard 1: 3 row\\(s\\), move \\d+\\n"), moved.toString());
    assertTrue(moved.err().contains("DONE"), "progress on stderr: " + moved);
    assertEquals(3, count(1, "SELECT COUNT(*) FROM posts WHERE author_id = 42"));
    assertEquals(0, count(0, "SELECT COUNT(*) FROM posts WHERE author_id = 42"));

    Result json = run("users", "locate", "42", "--json");
    assertEquals("{\"keyspace\":\"default\",\"key\":\"42\",\"shard\":1,\"state\":\"ACTIVE\",\"version\":3,\"rows\":{\"posts\":3}}\n", json.out());

    Result again = run("users", "move", "42", "--to", "1");
    assertEquals(2, again.code(), again.toString());
    assertTrue(again.err().contains("SHX1601") && again.err().contains("already lives on shard 1"), again.toString());
    assertEquals(2, run("users", "locate", "999").code());
    assertEquals(1, run("users", "move", "42").code(), "--to is required");
  }

  @Test
  void usersMove_aCatchUpLimitThatIsNotPositive_isAUsageError() throws Exception {
    store.assign("default", "43", 0);
    Result r = run("users", "move", "43", "--to", "1", "--catch-up-round-records", "0");
    assertEquals(1, r.code(), r.toString());
    assertTrue(r.err().contains("--catch-up-round-records, --catch-up-stall-rounds and --catch-up-stall-ms must be positive"),
        r.toString());
    assertTrue(run("users", "locate", "43").out().startsWith("key 43 (key space default): shard 0, ACTIVE, version 1"),
        "the key stays where it was");
  }

  @Test
  void usersMove_aCopyNiceRatioOutOfRange_isAUsageError() throws Exception {
    store.assign("default", "43", 0);
    for (String bad : new String[] {"-1", "101", "NaN"}) {
      Result r = run("users", "move", "43", "--to", "1", "--nice-ratio", bad);
      assertEquals(1, r.code(), r.toString());
      assertTrue(r.err().contains("--nice-ratio must be from 0 to 100.0 (given "), r.toString());
    }
    assertTrue(run("users", "locate", "43").out().startsWith("key 43 (key space default): shard 0, ACTIVE, version 1"),
        "the key stays where it was");
  }

  @Test
  void usersMove_aCatchUpBehindItsWriters_isStoppedByName() throws Exception {
    store.assign("default", "42", 0);
    onShard(0, "INSERT INTO posts SELECT 42000 + seq, 42, CONCAT('post ', seq) FROM seq_1_to_2100"); // recorded: 2,000 rows or more
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread writer = new Thread(() -> {
      try (java.sql.Connection c = TestCluster.sandbox().connectShard(0); java.sql.Statement st = c.createStatement()) {
        for (long n = 0; !stop.get(); n++) {
          st.executeUpdate("UPDATE posts SET body = 'write " + n + "' WHERE author_id = 42"); // 2,100 change records each
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
    writer.start();
    Result r;
    try {
      r = run("users", "move", "42", "--to", "1", "--catch-up-round-records", "5", "--catch-up-stall-rounds", "3");
    } finally {
      stop.set(true);
      writer.join(30_000);
    }
    assertEquals(2, r.code(), r.toString());
    assertTrue(r.err().contains("SHX1612") && r.err().contains("did not converge") && r.err().contains("stays ACTIVE on shard 0"),
        r.toString());
    assertEquals(2100, count(0, "SELECT COUNT(*) FROM posts WHERE author_id = 42"));
    assertEquals(0, count(1, "SELECT COUNT(*) FROM posts WHERE author_id = 42"));
    Result list = run("moves", "list");
    assertTrue(list.out().contains("ABORTED") && list.out().contains("SHX1612"), list.toString());
  }

  @Test
  void usersMoveByCount() throws SQLException {
    for (long k = 1; k <= 5; k++) {
      user(k, 0, 2);
    }
    Result r = run("users", "move", "--from", "0", "--count", "3", "--to", "2", "--json");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().startsWith("{\"moved\":3,\"failed\":0,"), r.toString());
    assertEquals(6, count(2, "SELECT COUNT(*) FROM posts"));
    assertEquals(4, count(0, "SELECT COUNT(*) FROM posts"));
  }

  @Test
  void shardsDrainMovesEveryKeyOffThenRemovesTheShard() throws SQLException {
    for (long k = 1; k <= 4; k++) {
      user(k, 2, 3);
    }
    user(9, 0, 1);
    Result r = run("shards", "drain", "2", "--remove");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().startsWith("Drained shard 2: 4 key(s) moved, 0 failed, 0 left, "), r.toString());
    assertTrue(r.out().contains("removed from the catalog"), r.toString());
    assertTrue(r.err().contains("draining shard 2"), "progress on stderr: " + r);
    assertEquals(13, count(0, "SELECT COUNT(*) FROM posts") + count(1, "SELECT COUNT(*) FROM posts"), "every row kept");
    assertEquals(0, count(2, "SELECT COUNT(*) FROM posts"), "nothing left on the drained shard");
    assertTrue(store.shards().stream().noneMatch(x -> x.id() == 2), "shard 2 left the catalog");
  }

  @Test
  void recoverFinishesWhatWasLeftAndSaysSo() {
    Result r = run("recover");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().matches("Recovery: committed \\d+ prepared branches, rolled back \\d+, \\d+ still undecided, "
        + "\\d+ commit records cleaned\\n"), r.toString());
    Result json = run("recover", "--json");
    assertTrue(json.out().startsWith("{\"committed\":"), json.toString());
  }

  @Test
  void movesListResumeAbort() throws SQLException {
    user(7, 0, 2);
    user(8, 0, 2);
    FaultHook crashAfterFlip = (step, m) -> {
      if (step == MoveStep.FLIPPED) {
        throw new IllegalStateException("crash");
      }
    };
    Mover crashing = new Mover(store, TestCluster.connector(), MoveOptions.defaults(), crashAfterFlip);
    long flipped = crashing.plan("default", "7", 1);
    assertThrows(IllegalStateException.class, () -> crashing.run(flipped));
    FaultHook crashAfterCopy = (step, m) -> {
      if (step == MoveStep.COPIED) {
        throw new IllegalStateException("crash");
      }
    };
    Mover crashing2 = new Mover(store, TestCluster.connector(), MoveOptions.defaults(), crashAfterCopy);
    long copied = crashing2.plan("default", "8", 2);
    assertThrows(IllegalStateException.class, () -> crashing2.run(copied));

    Result list = run("moves", "list", "--unfinished");
    assertEquals(0, list.code(), list.toString());
    assertTrue(list.out().contains(" FLIPPED ") && list.out().contains(" COPIED "), list.toString());

    Result refused = run("moves", "abort", Long.toString(flipped));
    assertEquals(2, refused.code(), refused.toString());
    Result aborted = run("moves", "abort", Long.toString(copied));
    assertEquals(0, aborted.code(), aborted.toString());
    assertTrue(aborted.out().startsWith("Move " + copied + " is ABORTED"), aborted.toString());

    Result resumed = run("moves", "resume", "--json");
    assertEquals(0, resumed.code(), resumed.toString());
    assertTrue(resumed.out().contains("\"id\":" + flipped + ",") && resumed.out().contains("\"step\":\"DONE\""), resumed.toString());
    assertEquals(2, count(1, "SELECT COUNT(*) FROM posts WHERE author_id = 7"));
    assertEquals(0, count(0, "SELECT COUNT(*) FROM posts WHERE author_id = 7"));
    assertEquals(2, count(0, "SELECT COUNT(*) FROM posts WHERE author_id = 8"));
    assertEquals(0, count(2, "SELECT COUNT(*) FROM posts WHERE author_id = 8"));
    assertEquals("No unfinished moves.\n", run("moves", "resume").out());
    assertEquals(2, run("moves", "resume", "12345").code(), "unknown move");
  }

  @Test
  void verifyFindsProblemsAndRepairsOnlyIdenticalOrphans() throws SQLException {
    user(1, 0, 2);
    user(2, 0, 2);
    onShard(1, "INSERT INTO posts VALUES (1000, 1, 'post 0'), (1001, 1, 'post 1')"); // identical orphan copy of user 1
    onShard(2, "INSERT INTO posts VALUES (2000, 2, 'edited')"); // orphan of user 2 that differs
    onShard(2, "INSERT INTO posts VALUES (9000, 99, 'nobody')"); // key 99 has no owner
    onAllShards("INSERT INTO countries VALUES ('be', 'Belgium')");
    onShard(1, "UPDATE countries SET name = 'Belgique'");

    Result r = run("verify");
    assertEquals(2, r.code(), r.toString());
    assertTrue(r.out().endsWith("2 orphan(s), 1 unowned, 1 GLOBAL table(s) differing, 0 id(s) on more than one shard, 0 of 0 lookup(s) with missing, extra or duplicate entries\n"), r.toString());

    Result repaired = run("verify", "--repair", "--json");
    assertEquals(2, repaired.code(), repaired.toString());
    assertTrue(repaired.out().contains("\"repaired\":1"), repaired.toString());
    assertEquals(0, count(1, "SELECT COUNT(*) FROM posts WHERE author_id = 1"));
    assertEquals(1, count(2, "SELECT COUNT(*) FROM posts WHERE author_id = 2"), "a differing orphan is kept");

    onShard(2, "DELETE FROM posts");
    onShard(1, "UPDATE countries SET name = 'Belgium'");
    Result clean = run("verify");
    assertEquals(0, clean.code(), clean.toString());
    assertEquals("0 orphan(s), 0 unowned, 0 GLOBAL table(s) differing, 0 id(s) on more than one shard, 0 of 0 lookup(s) with missing, extra or duplicate entries: OK\n", clean.out());
  }

  @Test
  void tablesAdd_sequenceOverExistingRowsStartsAfterTheLargestIdOnAnyShard() throws SQLException {
    onAllShards("CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY, author_id BIGINT NOT NULL, body TEXT)");
    onShard(0, "INSERT INTO notes VALUES (12, 1, 'a')");
    onShard(2, "INSERT INTO notes VALUES (777, 2, 'b')");
    Result r = run("tables", "add", "notes", "--key", "author_id", "--sequence", "id");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().contains("id filled from a sequence starting after 777"), r.toString());
    var sequences = new dev.shardex.directory.sequence.SequenceStore(store);
    assertEquals("id", sequences.column("notes"));
    assertEquals(778, sequences.peek("notes.id"), "the next id handed out is above every id on the shards");
    assertEquals(1, run("tables", "add", "other", "--global", "--sequence", "id").code(), "only SHARDED tables take a sequence");
  }

  @Test
  void verifyReportsIdsOfASequenceColumnOnMoreThanOneShard() throws SQLException {
    user(1, 0, 0);
    user(2, 1, 0);
    new dev.shardex.directory.sequence.SequenceStore(store).declareColumn("posts", "id");
    onShard(0, "INSERT INTO posts VALUES (5, 1, 'first'), (6, 1, 'x')");
    onShard(1, "INSERT INTO posts VALUES (5, 2, 'second'), (7, 2, 'y')");
    Result r = run("verify");
    assertEquals(2, r.code(), r.toString());
    assertTrue(r.out().contains("id = 5 on shards [0, 1]"), r.toString());
    assertTrue(r.out().endsWith("0 orphan(s), 0 unowned, 0 GLOBAL table(s) differing, 1 id(s) on more than one shard, 0 of 0 lookup(s) with missing, extra or duplicate entries\n"), r.toString());
    Result json = run("--json", "verify");
    assertTrue(json.out().contains("\"duplicateIds\":[{\"table\":\"posts\",\"column\":\"id\",\"id\":5,\"shards\":[0,1],\"keys\":[\"1\",\"2\"]}]"),
        json.toString());
  }

  @Test
  void rebalancePlanAndApply() throws SQLException {
    for (long k = 1; k <= 24; k++) {
      user(k, k <= 20 ? 0 : 1, (int) (k % 5) + 1);
    }
    Result plan = run("rebalance", "plan", "--json");
    assertEquals(0, plan.code(), plan.toString());
    assertTrue(plan.out().contains("\"balanced\":true"), plan.toString());
    long before = count(0, "SELECT COUNT(*) FROM posts");

    Result apply = run("rebalance", "apply", "--parallel", "3");
    assertEquals(0, apply.code(), apply.toString());
    assertTrue(apply.err().contains("rebalancing:"), apply.toString());
    long total = 0;
    for (int s = 0; s < 3; s++) {
      long rows = count(s, "SELECT COUNT(*) FROM posts");
      total += rows;
      assertTrue(rows > 0, "shard " + s + " has " + rows);
    }
    assertTrue(before > count(0, "SELECT COUNT(*) FROM posts"));
    Result after = run("rebalance", "plan");
    assertTrue(after.out().contains("0 move(s), 0 row(s) to move"), after.toString());
    assertEquals(0, run("verify").code(), "no orphans after the moves");
    assertEquals(74, total, "every row exactly once");
  }
}
