package dev.shardex.benchmarks;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one single-shard statement through Shardex costs the servers, counted by the servers
 * themselves: the change of the shards' and the directory's {@code Questions} and {@code Com_*}
 * status counters over {@code stmts.ops} (2000) operations of each kind, per operation. A
 * statement that is routed from the key cache sends one statement to its shard and none to the
 * directory; anything more (a directory lookup, a session reset, a second statement) shows here as
 * a fraction above 0 or 1, whatever the machine's load. The counters also count this probe's own
 * connections and status queries and the directory's change poller, a few hundredths per operation.
 */
public final class ServerStatements {
  private static final String COUNTERS = "SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_select',"
      + " 'Com_insert', 'Com_update', 'Com_delete', 'Com_set_option', 'Com_commit', 'Com_rollback')";

  private ServerStatements() {}

  public static void main(String[] args) throws Exception {
    int ops = Integer.getInteger("stmts.ops", 2_000);
    try (BenchCluster cluster = BenchCluster.start("stmts", 4, ops, 1)) {
      cluster.placeUsers(2);
      cluster.loadRows();
      cluster.readOwners();
      try (Session s = new Session(new Contender.Shardex(cluster.shardexUrl("stmts")))) {
        for (long user = 0; user < ops; user++) {
          s.pointSelect(user, false); // steady state: every key cached
        }
        for (Workload w : new Workload[] {Workload.POINT_SELECT, Workload.UPDATE, Workload.INSERT}) {
          count(cluster, s, w, false, ops);
          count(cluster, s, w, true, ops);
        }
      } finally {
        dev.shardex.driver.ShardexDriver.shutdown();
      }
    }
    System.exit(0);
  }

  private static void count(BenchCluster cluster, Session s, Workload w, boolean fresh, int ops) throws Exception {
    Map<String, Long> before = counters(cluster);
    java.util.SplittableRandom r = new java.util.SplittableRandom(1);
    for (int i = 0; i < ops; i++) {
      w.run(s, r, ops, fresh);
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-14s %-6s per operation:", w.name(),
        fresh ? "fresh" : "kept"));
    counters(cluster).forEach((k, v) -> {
      long d = v - before.getOrDefault(k, 0L);
      if (d > 0) {
        line.append(String.format(Locale.ROOT, " %s %.3f", k, d / (double) ops));
      }
    });
    System.out.println(line);
  }

  /** The counters summed over the shards ("shards.") and the directory's ("directory."). */
  private static Map<String, Long> counters(BenchCluster cluster) throws SQLException {
    Map<String, Long> all = new TreeMap<>();
    for (int i = 0; i < cluster.shardCount(); i++) {
      try (Connection c = cluster.sandbox().connectShard(i)) {
        read(c, "shards.", all);
      }
    }
    try (Connection c = cluster.sandbox().connectDirectory()) {
      read(c, "directory.", all);
    }
    return all;
  }

  private static void read(Connection c, String prefix, Map<String, Long> into) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(COUNTERS)) {
      while (rs.next()) {
        into.merge(prefix + rs.getString(1), rs.getLong(2), Long::sum);
      }
    }
  }
}
