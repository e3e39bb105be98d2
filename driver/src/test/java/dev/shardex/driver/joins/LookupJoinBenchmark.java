package dev.shardex.driver.joins;

import dev.shardex.driver.TestCluster;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a cross-shard lookup join costs (issue 20's figure), not in the suite: run with
 * {@code mvn -o -q test -pl driver -am -Dtest=LookupJoinBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * The join drives 100 orders of one seller (one shard) and looks up their 100 distinct buyers,
 * sharded by id over the 4 shards: its statements at the shards (the servers' own Com_select
 * counters around one warm execution), and its time against the same join on one plain MariaDB
 * server holding all rows, the two alternating execution by execution; {@code join.n} (default 500)
 * timed pairs after as many warm-up ones; medians.
 */
public final class LookupJoinBenchmark {
  private static final int N = Integer.getInteger("join.n", 500);
  private static final String JOIN =
      "SELECT o.id, o.total, u.name FROM lj_orders o JOIN lj_users u ON o.buyer_id = u.id WHERE o.seller_id = ?";

  @Test
  void aHundredRowLookupJoinOverFourShards() throws Exception {
    List<String> ddl = List.of(
        "CREATE TABLE lj_users (id BIGINT PRIMARY KEY, name VARCHAR(40)) COMMENT='shardex:sharded key=id'",
        "CREATE TABLE lj_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT, total DECIMAL(10,2),"
            + " KEY (seller_id)) COMMENT='shardex:sharded key=seller_id'");
    StringBuilder users = new StringBuilder("INSERT INTO lj_users VALUES ");
    for (int id = 1; id <= 400; id++) {
      users.append(id == 1 ? "" : ", ").append("(").append(id).append(", 'buyer ").append(id).append("')");
    }
    StringBuilder orders = new StringBuilder("INSERT INTO lj_orders VALUES ");
    for (int id = 1; id <= 100; id++) {
      orders.append(id == 1 ? "" : ", ").append("(").append(id).append(", 7, ").append(id * 3).append(", ").append(id).append(".50)");
    }
    try (Connection oracle = SandboxCluster.shared("oracle", 1).connectShard(0); Statement o = oracle.createStatement()) {
      o.execute("DROP TABLE IF EXISTS lj_users");
      o.execute("DROP TABLE IF EXISTS lj_orders");
      for (String sql : ddl) {
        o.execute(sql);
      }
      o.execute(users.toString());
      o.execute(orders.toString());
      TestCluster.run(ddl.toArray(String[]::new));
      TestCluster.run(users.toString(), orders.toString());
      try (Connection c = TestCluster.connect(); PreparedStatement sharded = c.prepareStatement(JOIN);
          PreparedStatement plain = oracle.prepareStatement(JOIN)) {
        int rows = run(sharded);
        if (rows != 100 || run(plain) != 100) {
          throw new IllegalStateException("the join returns " + rows + " rows");
        }
        long[] before = TestCluster.statusAll("Com_select");
        run(sharded);
        long[] after = TestCluster.statusAll("Com_select");
        long[] perShard = new long[before.length];
        for (int i = 0; i < before.length; i++) {
          perShard[i] = after[i] - before[i];
        }
        long[][] nanos = new long[2][N];
        for (int i = 0; i < 2 * N; i++) {
          long t0 = System.nanoTime();
          run(sharded);
          long t1 = System.nanoTime();
          run(plain);
          long t2 = System.nanoTime();
          if (i >= N) {
            nanos[0][i - N] = t1 - t0;
            nanos[1][i - N] = t2 - t1;
          }
        }
        long shardex = median(nanos[0]);
        long one = median(nanos[1]);
        System.out.printf("lookup join, 100 driving rows, 100 buyers over 4 shards: statements at the shards %s (total %d),"
            + " median %d us vs %d us on one server: x%.2f%n", Arrays.toString(perShard), Arrays.stream(perShard).sum(),
            shardex / 1000, one / 1000, (double) shardex / one);
      }
    }
  }

  private static int run(PreparedStatement ps) throws SQLException {
    ps.setLong(1, 7);
    int n = 0;
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }

  private static long median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
