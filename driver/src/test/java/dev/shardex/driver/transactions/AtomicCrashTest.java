package dev.shardex.driver.transactions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.Recover;
import dev.shardex.driver.cluster.ShardexConfig;
import dev.shardex.driver.TestCluster;
import dev.shardex.driver.execute.AtomicCommit;
import dev.shardex.driver.execute.AtomicCommit.Step;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Crashes at every step of a multi-shard atomic commit, then recovery: each transaction ends
 * committed on all its shards or on none, and no branch stays prepared (no key blocked).
 *
 * <p>Three kinds of crash: the driver dies (its shard connections are killed server-side at the
 * chosen step and the commit stops there), a real driver process is halted (a child JVM), and a
 * shard server is stopped mid-commit and restarted. The default counts keep the suite fast;
 * {@code -Dshardex.crashes=200} runs 200 driver crashes, 20 child-JVM kills and 10 shard kills.
 */
class AtomicCrashTest {
  static final int CRASHES = Integer.getInteger("shardex.crashes", 40);
  static final long SEED = Long.getLong("shardex.crashSeed", 20261123L);
  static long[] users;

  /** Stops the commit where the driver "died". */
  static final class Crash extends RuntimeException {
    Crash() {
      super("simulated driver crash", null, false, false);
    }
  }

  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ac_rows (user_id BIGINT, note VARCHAR(40))");
    users = Txn.usersOnEveryShard("ac_rows");
  }

  @AfterEach
  void noFault() {
    AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> { };
  }

  /** A random transaction: 2 to 4 shards, the first one the origin. */
  static List<Integer> shards(Random r) {
    List<Integer> all = new ArrayList<>(List.of(0, 1, 2, 3));
    Collections.shuffle(all, r);
    return all.subList(0, 2 + r.nextInt(3));
  }

  static void write(Connection c, List<Integer> shards, String note) throws SQLException {
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      for (int shard : shards) {
        s.executeUpdate("INSERT INTO ac_rows (user_id, note) VALUES (" + users[shard] + ", '" + note + "')");
      }
    }
  }

  /** Rows of the transaction per shard: all 1 (committed) or all 0 (absent); anything else is partial. */
  static List<Long> outcome(List<Integer> shards, String note) throws SQLException {
    List<Long> rows = new ArrayList<>();
    for (int shard : shards) {
      rows.add(TestCluster.countOnShard(shard, "ac_rows", "note = '" + note + "'"));
    }
    return rows;
  }

  static boolean whole(List<Long> rows) {
    return rows.stream().allMatch(n -> n == 1) || rows.stream().allMatch(n -> n == 0);
  }

  /** Recovery passes until no Shardex branch is prepared anywhere (bounded). */
  static void recover(Cluster cluster) throws Exception {
    recover(cluster::recover);
  }

  static void recover(java.util.concurrent.Callable<?> pass) throws Exception {
    for (int i = 0; i < 200; i++) {
      pass.call();
      if (Txn.preparedBranches() == 0) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("branches still prepared after recovery: " + Txn.preparedBranches());
  }

  static boolean perBranch(Step step) {
    return step == Step.PREPARED || step == Step.BRANCH_COMMITTED;
  }

  static Step randomStep(Random r) {
    return Step.values()[r.nextInt(Step.values().length)];
  }

  @Test
  void driverCrashesAtEveryStepLeaveNoPartialCommit() throws Exception {
    Random r = new Random(SEED);
    int partial = 0;
    int committed = 0;
    for (int i = 0; i < CRASHES; i++) {
      List<Integer> shards = shards(r);
      Step at = randomStep(r);
      int nth = perBranch(at) ? r.nextInt(shards.size() - 1) : 0; // which branch, for the per-branch steps
      String note = "dc-" + SEED + "-" + i;
      int[] seen = {0};
      AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> {
        if (step == at && seen[0]++ == nth) {
          connections.forEach(Txn::kill); // the driver's process is gone: the servers drop its sessions
          throw new Crash();
        }
      };
      try (Connection c = TestCluster.connect()) {
        write(c, shards, note);
        try {
          c.commit();
          throw new AssertionError("commit ran past the crash at " + at);
        } catch (Crash expected) {
          // the driver is dead from here on
        }
        AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> { };
        recover(TestCluster.cluster(c));
      }
      List<Long> rows = outcome(shards, note);
      boolean afterCommitPoint = at == Step.AFTER_COMMIT_POINT || at == Step.BRANCH_COMMITTED;
      if (!whole(rows)) {
        partial++;
      } else {
        assertEquals(afterCommitPoint ? 1L : 0L, rows.get(0), "crash at " + at + ": committed iff past the commit point");
        committed += rows.get(0).intValue();
      }
    }
    System.out.println("AtomicCrashTest: " + CRASHES + " driver crashes, " + committed + " committed, "
        + (CRASHES - committed - partial) + " rolled back, " + partial + " partial");
    assertEquals(0, partial, "partial commits");
    assertEquals(0, Txn.preparedBranches(), "no branch blocks a key");
  }

  @Test
  void aKilledDriverProcessIsRecovered() throws Exception {
    Random r = new Random(SEED + 1);
    int kills = Math.max(Step.values().length, CRASHES / 10);
    String url = ShardexConfig.PREFIX + TestCluster.sandbox().directoryUrl().substring("jdbc:".length());
    int partial = 0;
    for (int i = 0; i < kills; i++) {
      List<Integer> shards = shards(r);
      Step at = Step.values()[i % Step.values().length];
      String note = "jvm-" + SEED + "-" + i;
      List<String> cmd = new ArrayList<>(List.of(
          java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(), url,
          TestCluster.sandbox().user(), TestCluster.sandbox().password(), at.name(),
          Integer.toString(perBranch(at) ? r.nextInt(shards.size() - 1) : 0), note));
      shards.forEach(s -> cmd.add(Long.toString(users[s])));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child ended");
      assertEquals(3, p.exitValue(), "child halted mid-commit: " + out);
      java.util.Properties login = new java.util.Properties();
      login.setProperty("user", TestCluster.sandbox().user());
      login.setProperty("password", TestCluster.sandbox().password());
      recover(() -> Recover.run(url, login)); // what the CLI's recover command runs
      List<Long> rows = outcome(shards, note);
      partial += whole(rows) ? 0 : 1;
      if (whole(rows)) {
        boolean afterCommitPoint = at == Step.AFTER_COMMIT_POINT || at == Step.BRANCH_COMMITTED;
        assertEquals(afterCommitPoint ? 1L : 0L, rows.get(0), "halt at " + at + ": committed iff past the commit point");
      }
    }
    assertEquals(0, partial, "partial commits after " + kills + " child-JVM kills");
  }

  @Test
  void aShardServerStoppedMidCommitIsRecovered() throws Exception {
    Random r = new Random(SEED + 2);
    int kills = Math.max(2, CRASHES / 20);
    int partial = 0;
    for (int i = 0; i < kills; i++) {
      List<Integer> shards = shards(r);
      boolean beforeCommitPoint = i % 2 == 0;
      // before the commit point the origin dies; after it, a branch whose XA COMMIT is still to come
      int victim = beforeCommitPoint ? shards.get(0) : shards.get(shards.size() - 1);
      Step at = beforeCommitPoint ? Step.BEFORE_COMMIT_POINT : Step.AFTER_COMMIT_POINT;
      String note = "srv-" + SEED + "-" + i;
      AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> {
        if (step == at) {
          TestCluster.sandbox().stopShard(victim);
        }
      };
      try (Connection c = TestCluster.connect()) {
        write(c, shards, note);
        boolean acknowledged;
        try {
          c.commit();
          acknowledged = true;
        } catch (SQLException e) {
          acknowledged = false;
        }
        AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> { };
        assertEquals(!beforeCommitPoint, acknowledged, "commit acknowledged iff the commit point was reached");
      } finally {
        TestCluster.sandbox().startShard(victim);
      }
      try (Connection c = TestCluster.connect()) {
        recover(TestCluster.cluster(c));
      }
      List<Long> rows = outcome(shards, note);
      partial += whole(rows) ? 0 : 1;
      if (whole(rows)) {
        assertEquals(beforeCommitPoint ? 0L : 1L, rows.get(0), "stopped shard " + victim + " at " + at);
      }
    }
    assertEquals(0, partial, "partial commits after " + kills + " shard kills");
  }
}
