package dev.shardex.driver.lookups;

import static dev.shardex.driver.lookups.LookupCostBenchmark.ratio;
import static dev.shardex.driver.lookups.LookupCostBenchmark.summary;
import static dev.shardex.driver.lookups.LookupCostBenchmark.time;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * What upserts through a unique lookup cost, side by side on the sandbox (not in the suite: run
 * with {@code mvn -o -q test -pl driver -am -Dtest=LookupUpsertBenchmark -Dsurefire.failIfNoSpecifiedTests=false}):
 * a REPLACE of a new id vs an INSERT of one (both keeping the lookup); a REPLACE of a row of the
 * same owner (a re-run seed) with the lookup vs without (PRIMARY KEY (owner_id, id)); a REPLACE and an ON DUPLICATE KEY UPDATE
 * of an id another owner holds on another shard vs the same of an id the owner holds. The two
 * sides alternate execution by execution; {@code upsert.n} (default 1000) timed pairs after as
 * many warm-up ones; medians and means.
 */
public final class LookupUpsertBenchmark {
  private static final int N = Integer.getInteger("upsert.n", 1000);

  @Test
  void upserts_withAndWithoutACollisionOnAnotherShard() throws Exception {
    String columns = " (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(20), n INT NOT NULL DEFAULT 0, KEY (owner_id))";
    TestCluster.run("CREATE TABLE ub_plain (id BIGINT NOT NULL, owner_id BIGINT NOT NULL, name VARCHAR(20), n INT NOT NULL DEFAULT 0,"
        + " PRIMARY KEY (owner_id, id)) COMMENT='shardex:sharded key=owner_id'",
        "CREATE TABLE ub_looked" + columns + " COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "CREATE TABLE ub_moved" + columns + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect(); UpsertTwin twin = new UpsertTwin("ub_looked", "owner_id", "id", "")) {
      long[] owners = twin.keysOnDistinctShards(9500, 2);
      Value first = i -> owners[0];
      long[][] fresh = pairs(c, "INSERT INTO ub_looked (id, owner_id, name) VALUES (?, ?, 'x')",
          "REPLACE INTO ub_looked (id, owner_id, name) VALUES (?, ?, 'x')", i -> 2 * i, i -> 2 * i + 1, first, first);
      long[][] seed = pairs(c, "REPLACE INTO ub_plain (id, owner_id, name) VALUES (?, ?, 'x')",
          "REPLACE INTO ub_looked (id, owner_id, name) VALUES (?, ?, 'x')", i -> i % 100, i -> i % 100, first, first);
      // ub_moved's row 1 changes owner (and shard) at every execution
      long[][] replace = pairs(c, "REPLACE INTO ub_looked (id, owner_id, name) VALUES (?, ?, 'x')",
          "REPLACE INTO ub_moved (id, owner_id, name) VALUES (?, ?, 'x')", i -> 1, i -> 1, first, i -> owners[(int) (i % 2)]);
      // ub_moved's row 2 belongs to the second owner: the first owner's upsert updates it on the second owner's shard
      TestCluster.run("INSERT INTO ub_moved (id, owner_id, name) VALUES (2, " + owners[1] + ", 'x')");
      String upsert = " (id, owner_id, name) VALUES (?, ?, 'x') ON DUPLICATE KEY UPDATE n = n + 1";
      long[][] update = pairs(c, "INSERT INTO ub_looked" + upsert, "INSERT INTO ub_moved" + upsert, i -> 2, i -> 2, first, first);
      System.out.println("new id: INSERT " + summary(fresh[0]) + ", REPLACE " + summary(fresh[1]) + ", median ratio x" + ratio(fresh));
      System.out.println("re-run seed REPLACE: without lookup " + summary(seed[0]) + ", with " + summary(seed[1])
          + ", median ratio x" + ratio(seed));
      System.out.println("REPLACE: same owner " + summary(replace[0]) + ", another owner on another shard " + summary(replace[1])
          + ", median ratio x" + ratio(replace));
      System.out.println("ON DUPLICATE KEY UPDATE: same owner " + summary(update[0]) + ", another owner on another shard "
          + summary(update[1]) + ", median ratio x" + ratio(update));
    }
  }

  private interface Value {
    long of(long i);
  }

  /** Runs {@code a} and {@code b} alternately, 2N times each (the first N warm up), execution i binding the id and owner given for i. */
  private static long[][] pairs(Connection c, String a, String b, Value idA, Value idB, Value ownerA, Value ownerB)
      throws SQLException {
    long[][] nanos = new long[2][N];
    try (PreparedStatement pa = c.prepareStatement(a); PreparedStatement pb = c.prepareStatement(b)) {
      for (int i = 0; i < 2 * N; i++) {
        long at = i;
        long ta = time(() -> run(pa, idA.of(at), ownerA.of(at)));
        long tb = time(() -> run(pb, idB.of(at), ownerB.of(at)));
        if (i >= N) {
          nanos[0][i - N] = ta;
          nanos[1][i - N] = tb;
        }
      }
    }
    return nanos;
  }

  private static void run(PreparedStatement ps, long id, long owner) throws SQLException {
    ps.setLong(1, id);
    ps.setLong(2, owner);
    ps.executeUpdate();
  }
}
