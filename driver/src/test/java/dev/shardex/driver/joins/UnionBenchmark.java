package dev.shardex.driver.joins;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a UNION across shards costs, not in the suite: run with
 * {@code mvn -o -q test -pl driver -am -Dtest=UnionBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * Over {@link UnionTest}'s rows (30 users, 200 orders on 4 shards): T16 (UNION of two scattered
 * branches, combined on one shard), T17 (two ordered, limited branches, combined with ORDER BY and
 * LIMIT) and T18 (a GLOBAL and a scattered branch concatenated): the statements each sends to the
 * shards (the servers' own Com_select counters around one warm execution) and its median time
 * against the same statement on one plain MariaDB server holding all rows, the two alternating;
 * {@code union.n} (default 300) timed pairs after as many warm-up ones.
 */
public final class UnionBenchmark {
  private static final int N = Integer.getInteger("union.n", 300);

  @Test
  void t16_t17_t18() throws Exception {
    UnionTest.load();
    try (Connection c = TestCluster.connect()) {
      for (List<Object> q : List.of(
          List.<Object>of("T16", "SELECT id, name FROM xu_users WHERE status = ? UNION SELECT buyer_id, NULL FROM xu_orders"
              + " WHERE total > ?", "vip", 500),
          List.<Object>of("T17", "(SELECT id, created_at FROM xu_orders WHERE seller_id = ? ORDER BY created_at DESC LIMIT 10)"
              + " UNION ALL (SELECT id, created_at FROM xu_orders WHERE buyer_id = ? ORDER BY created_at DESC LIMIT 10)"
              + " ORDER BY created_at DESC LIMIT 10", 3, 8),
          List.<Object>of("T18", "SELECT code, name FROM xu_countries UNION ALL SELECT country, name FROM xu_users"
              + " WHERE id > ?", 20))) {
        try (PreparedStatement sharded = c.prepareStatement((String) q.get(1));
            PreparedStatement plain = UnionTest.oracle.prepareStatement((String) q.get(1))) {
          measure((String) q.get(0), sharded, plain, q.subList(2, q.size()).toArray());
        }
      }
    } finally {
      UnionTest.oracle.close();
    }
  }

  private static void measure(String name, PreparedStatement sharded, PreparedStatement plain, Object[] args) throws SQLException {
    int rows = run(sharded, args);
    if (rows != run(plain, args)) {
      throw new IllegalStateException(name + " returns " + rows + " rows, the oracle another count");
    }
    long[] before = TestCluster.statusAll("Com_select");
    run(sharded, args);
    long[] after = TestCluster.statusAll("Com_select");
    long statements = 0;
    for (int i = 0; i < before.length; i++) {
      statements += after[i] - before[i];
    }
    long[] shardex = new long[N];
    long[] one = new long[N];
    for (int i = -N; i < N; i++) { // the first N pairs warm up
      long t0 = System.nanoTime();
      run(sharded, args);
      long t1 = System.nanoTime();
      run(plain, args);
      if (i >= 0) {
        shardex[i] = t1 - t0;
        one[i] = System.nanoTime() - t1;
      }
    }
    Arrays.sort(shardex);
    Arrays.sort(one);
    System.out.printf("%s: %d rows, %d statements at the shards, median %d us vs %d us on one server: x%.2f%n", name, rows,
        statements, shardex[N / 2] / 1000, one[N / 2] / 1000, (double) shardex[N / 2] / one[N / 2]);
  }

  private static int run(PreparedStatement ps, Object[] args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      ps.setObject(i + 1, args[i]);
    }
    int n = 0;
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }
}
