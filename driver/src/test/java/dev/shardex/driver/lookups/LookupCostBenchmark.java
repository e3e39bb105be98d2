package dev.shardex.driver.lookups;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What a lookup costs, side by side on the sandbox (not in the suite: run with
 * {@code mvn -o -q test -pl driver -am -Dtest=LookupCostBenchmark -Dsurefire.failIfNoSpecifiedTests=false}):
 * a warm point read routed by a cached lookup entry ({@code WHERE id = ?}) vs one routed by the
 * shard key ({@code WHERE owner_id = ? AND id = ?}, the fast path), and an INSERT that keeps one
 * unique lookup vs a plain INSERT, a JDBC batch of {@value #BATCH} such INSERTs vs a plain batch (one
 * claim for the batch), and a DELETE by id through the lookup (its entry released after) vs one by
 * key. The two sides alternate execution by execution, so the drift of a shared machine hits both
 * alike; {@code lookup.n} (default 3000) timed pairs after as many warm-up ones (a twentieth of
 * that for batches); medians and means.
 */
public final class LookupCostBenchmark {
  private static final int N = Integer.getInteger("lookup.n", 3000);
  private static final int BATCH = 20;

  @Test
  void pointReadAndInsert_withAndWithoutALookup() throws Exception {
    TestCluster.run("CREATE TABLE lc_plain (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(20), KEY (owner_id))"
        + " COMMENT='shardex:sharded key=owner_id'",
        "CREATE TABLE lc_looked (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(20), KEY (owner_id))"
        + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect();
        PreparedStatement plainInsert = c.prepareStatement("INSERT INTO lc_plain (id, owner_id, name) VALUES (?, ?, 'x')");
        PreparedStatement lookupInsert = c.prepareStatement("INSERT INTO lc_looked (id, owner_id, name) VALUES (?, ?, 'x')");
        PreparedStatement byKey = c.prepareStatement("SELECT name FROM lc_plain WHERE owner_id = ? AND id = ?");
        PreparedStatement byLookup = c.prepareStatement("SELECT name FROM lc_looked WHERE id = ?")) {
      long[][] insert = new long[2][N];
      long[][] read = new long[2][N];
      for (int i = 0; i < 2 * N; i++) {
        long id = i + 1;
        record(insert, i, 0, time(() -> insert(plainInsert, id)));
        record(insert, i, 1, time(() -> insert(lookupInsert, id)));
      }
      for (int i = 0; i < 2 * N; i++) {
        long id = 1 + (i * 7919L) % Math.min(1000, N); // every id read once in the warm-up already
        record(read, i, 0, time(() -> read(byKey, id % 100, id)));
        record(read, i, 1, time(() -> read(byLookup, id)));
      }
      long[][] batch = batches(c);
      long[][] delete = new long[2][N];
      try (PreparedStatement byKeyDelete = c.prepareStatement("DELETE FROM lc_plain WHERE owner_id = ? AND id = ?");
          PreparedStatement byIdDelete = c.prepareStatement("DELETE FROM lc_looked WHERE id = ?")) {
        for (int i = 0; i < 2 * N; i++) {
          long id = i + 1;
          record(delete, i, 0, time(() -> update(byKeyDelete, id % 100, id)));
          record(delete, i, 1, time(() -> update(byIdDelete, id)));
        }
      }
      System.out.println("delete: by key " + summary(delete[0]) + ", by id through the lookup (entry released) "
          + summary(delete[1]) + ", median ratio x" + ratio(delete));
      System.out.println("point read: by key " + summary(read[0]) + ", by cached lookup " + summary(read[1])
          + ", median ratio x" + ratio(read));
      System.out.println("insert: plain " + summary(insert[0]) + ", keeping a unique lookup " + summary(insert[1])
          + ", median ratio x" + ratio(insert));
      System.out.println("batch of " + BATCH + " inserts: plain " + summary(batch[0]) + ", keeping a unique lookup "
          + summary(batch[1]) + ", median ratio x" + ratio(batch));
    }
  }

  /** Batches of BATCH new rows over 20 owners, into each table (ids above the single INSERTs'). */
  private static long[][] batches(Connection c) throws SQLException {
    int n = Math.max(10, N / BATCH);
    long[][] times = new long[2][n];
    try (PreparedStatement plain = c.prepareStatement("INSERT INTO lc_plain (id, owner_id, name) VALUES (?, ?, 'b')");
        PreparedStatement looked = c.prepareStatement("INSERT INTO lc_looked (id, owner_id, name) VALUES (?, ?, 'b')")) {
      for (int i = 0; i < 2 * n; i++) {
        long first = 1_000_000L + (long) i * BATCH;
        int at = i >= n ? i - n : -1;
        long p = time(() -> batch(plain, first));
        long l = time(() -> batch(looked, first));
        if (at >= 0) {
          times[0][at] = p;
          times[1][at] = l;
        }
      }
    }
    return times;
  }

  private static void batch(PreparedStatement ps, long first) throws SQLException {
    for (long id = first; id < first + BATCH; id++) {
      ps.setLong(1, id);
      ps.setLong(2, id % 20);
      ps.addBatch();
    }
    ps.executeBatch();
  }

  interface Op {
    void run() throws SQLException;
  }

  static long time(Op op) throws SQLException {
    long start = System.nanoTime();
    op.run();
    return System.nanoTime() - start;
  }

  private static void record(long[][] into, int i, int side, long nanos) {
    if (i >= N) {
      into[side][i - N] = nanos;
    }
  }

  private static void insert(PreparedStatement ps, long id) throws SQLException {
    ps.setLong(1, id);
    ps.setLong(2, id % 100);
    ps.executeUpdate();
  }

  private static void read(PreparedStatement ps, long... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      ps.setLong(i + 1, args[i]);
    }
    try (ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        throw new AssertionError("no row for " + Arrays.toString(args));
      }
    }
  }

  private static void update(PreparedStatement ps, long... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      ps.setLong(i + 1, args[i]);
    }
    if (ps.executeUpdate() != 1) {
      throw new AssertionError("no row for " + Arrays.toString(args));
    }
  }

  private static long median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  static String summary(long[] nanos) {
    return String.format("median %d us, mean %d us", median(nanos) / 1000, Arrays.stream(nanos).sum() / nanos.length / 1000);
  }

  static String ratio(long[][] sides) {
    return String.format("%.2f", (double) median(sides[1]) / median(sides[0]));
  }
}
