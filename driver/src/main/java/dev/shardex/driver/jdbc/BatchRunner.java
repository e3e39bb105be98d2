package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.ShardAccess;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.RouteTemplate;
import java.sql.BatchUpdateException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Batches grouped per shard: every entry is routed first (so a refused entry fails the batch
 * before anything runs), each shard then runs its entries as one JDBC batch, and the counts come
 * back in the caller's order. An entry that goes to several shards (a GLOBAL table) counts once.
 */
final class BatchRunner {
  private BatchRunner() {}

  /** One entry's place in the batch and the work to add it to a shard's physical batch. */
  private record Entry(int index, Adder adder) {}

  @FunctionalInterface
  private interface Adder {
    void add(Statement physical) throws SQLException;
  }

  @FunctionalInterface
  private interface Opener {
    Statement open(java.sql.Connection c) throws SQLException;
  }

  static long[] plain(ShardexConnection conn, ShardexStatement owner, List<String> sqls) throws SQLException {
    Map<Integer, List<Entry>> perShard = new TreeMap<>();
    for (int i = 0; i < sqls.size(); i++) {
      String sql = sqls.get(i);
      Analysis a = conn.cluster().templates().plain(sql);
      RoutePlan plan = conn.planFor(a.template(), a.literals());
      add(perShard, plan, new Entry(i, s -> s.addBatch(sql)));
    }
    return run(conn, perShard, sqls.size(), java.sql.Connection::createStatement);
  }

  static long[] prepared(ShardexConnection conn, ShardexPreparedStatement owner, List<Parameters> sets) throws SQLException {
    RouteTemplate t = owner.template();
    Map<Integer, List<Entry>> perShard = new TreeMap<>();
    for (int i = 0; i < sets.size(); i++) {
      Parameters p = sets.get(i);
      RoutePlan plan = conn.planFor(t, p.values());
      add(perShard, plan, new Entry(i, s -> {
        p.bind((PreparedStatement) s, t.parameterCount());
        ((PreparedStatement) s).addBatch();
      }));
    }
    return run(conn, perShard, sets.size(), owner::prepare);
  }

  private static void add(Map<Integer, List<Entry>> perShard, RoutePlan plan, Entry e) {
    for (int shard : plan.shards()) {
      perShard.computeIfAbsent(shard, k -> new ArrayList<>()).add(e);
    }
  }

  private static long[] run(ShardexConnection conn, Map<Integer, List<Entry>> perShard, int size, Opener opener)
      throws SQLException {
    ShardAccess access = conn.session();
    access.checkScope(List.copyOf(perShard.keySet()), true);
    long[] counts = new long[size];
    Arrays.fill(counts, Statement.EXECUTE_FAILED);
    boolean[] done = new boolean[size];
    for (Map.Entry<Integer, List<Entry>> shard : perShard.entrySet()) {
      try (ShardLease lease = access.acquire(shard.getKey(), true, true); Statement s = opener.open(lease.connection())) {
        for (Entry e : shard.getValue()) {
          e.adder().add(s);
        }
        long[] shardCounts;
        try {
          shardCounts = s.executeLargeBatch();
        } catch (SQLException e) {
          throw failed(lease.translate(e), counts, shard.getKey());
        }
        for (int i = 0; i < shardCounts.length && i < shard.getValue().size(); i++) {
          int index = shard.getValue().get(i).index();
          if (!done[index]) {
            counts[index] = shardCounts[i];
            done[index] = true;
          }
        }
      }
    }
    return counts;
  }

  private static SQLException failed(SQLException cause, long[] counts, int shard) {
    BatchUpdateException e = new BatchUpdateException("Shardex: batch failed on shard " + shard + ": " + cause.getMessage()
        + " (entries for other shards may have run; counts are in the caller's order)", cause.getSQLState(),
        cause.getErrorCode(), counts, cause);
    return e;
  }

  static int[] toInts(long[] counts) {
    int[] out = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
    }
    return out;
  }
}
