package dev.shardex.driver.execute;

import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.ShardSql;
import java.sql.BatchUpdateException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * execute stage for a JDBC batch whose entries are all routed: each shard runs its share as JDBC
 * batches, one per shard for plain texts and one per shard and distinct text for a prepared
 * statement (a split multi-row INSERT gives different shards different rows), and the counts come
 * back in the caller's order. An entry on several shards adds up its shards' counts (split rows,
 * scatter writes) or counts once (a GLOBAL table's copies).
 *
 * <p>A shard whose batch failed on some statements and went on with the others (Connector/J's
 * {@code continueBatchOnError}, its default) does not stop the batch: its counts are taken as they
 * are and the other shards run, and the batch then fails as one server's would, with every entry's
 * count ({@link Statement#EXECUTE_FAILED} for the failed ones) and the first failure's error. Any
 * other failure stops the batch at that shard. The transaction scope is checked before any shard
 * runs, so a refused batch changed nothing.
 */
public final class BatchExecutor {
  private BatchExecutor() {}

  /** One entry's share on one shard: its position and its text there. */
  private record Part(int index, ShardSql sql) {}

  /** Runs the entries' plans (a null plan: the entry runs nothing); the counts, in the caller's order. */
  public static long[] run(List<RoutePlan> plans, ShardAccess access, BatchCall call) throws SQLException {
    Map<Integer, List<Part>> perShard = parts(plans, call);
    access.checkScope(List.copyOf(perShard.keySet()), true);
    long[] counts = new long[plans.size()];
    Arrays.fill(counts, Statement.EXECUTE_FAILED);
    boolean[] counted = new boolean[plans.size()];
    SQLException failures = null;
    for (Map.Entry<Integer, List<Part>> shard : perShard.entrySet()) {
      try (ShardLease lease = access.acquire(shard.getKey(), true, true)) {
        for (List<Part> group : groups(shard.getValue(), call.prepared())) {
          long[] shardCounts;
          try {
            access.metrics().roundTrip(); // one JDBC batch per shard and text, counted once
            shardCounts = call.prepared() ? preparedBatch(lease, group, call) : plainBatch(lease, group);
          } catch (SQLException e) {
            shardCounts = wentOn(e, group.size());
            if (shardCounts == null) {
              throw failed(lease.translate(e), counts, shard.getKey());
            }
            failures = chain(failures, e);
          }
          add(counts, counted, group, shardCounts, plans);
        }
      }
    }
    if (failures != null) {
      throw new BatchUpdateException(failures.getMessage(), failures.getSQLState(), failures.getErrorCode(), counts,
          failures);
    }
    return counts;
  }

  /** Each shard's share of the entries that run, in shard order. */
  private static Map<Integer, List<Part>> parts(List<RoutePlan> plans, BatchCall call) throws SQLException {
    Map<Integer, List<Part>> perShard = new TreeMap<>();
    for (int i = 0; i < plans.size(); i++) {
      RoutePlan plan = plans.get(i);
      if (plan == null) {
        continue;
      }
      for (int shard : plan.shards()) {
        perShard.computeIfAbsent(shard, k -> new ArrayList<>()).add(new Part(i, plan.sqlFor(call.sql(i), shard)));
      }
    }
    return perShard;
  }

  /** The counts of a shard's batch that failed on some statements and ran all the others; null if it stopped. */
  private static long[] wentOn(SQLException e, int statements) {
    return e instanceof BatchUpdateException b && b.getLargeUpdateCounts() != null
        && b.getLargeUpdateCounts().length == statements ? b.getLargeUpdateCounts() : null;
  }

  private static SQLException chain(SQLException first, SQLException next) {
    if (first == null) {
      return next;
    }
    first.setNextException(next);
    return first;
  }

  /**
   * Adds a shard's counts to the entries': an entry on several shards sums them (counts once for a
   * GLOBAL table's copies) and fails if it failed on any.
   */
  private static void add(long[] counts, boolean[] counted, List<Part> group, long[] shardCounts, List<RoutePlan> plans) {
    for (int i = 0; i < shardCounts.length && i < group.size(); i++) {
      int index = group.get(i).index();
      boolean once = plans.get(index).fanout() == Fanout.REPLICATE;
      if (!counted[index] || shardCounts[i] == Statement.EXECUTE_FAILED) {
        counts[index] = shardCounts[i];
        counted[index] = true;
      } else if (!once && shardCounts[i] >= 0 && counts[index] >= 0) {
        counts[index] += shardCounts[i];
      }
    }
  }

  /** Plain entries share one batch per shard; prepared ones one batch per distinct text. */
  private static List<List<Part>> groups(List<Part> parts, boolean byText) {
    if (!byText) {
      return List.of(parts);
    }
    Map<String, List<Part>> byKey = new LinkedHashMap<>();
    for (Part p : parts) {
      byKey.computeIfAbsent(p.sql().text(), k -> new ArrayList<>()).add(p);
    }
    return List.copyOf(byKey.values());
  }

  private static long[] plainBatch(ShardLease lease, List<Part> group) throws SQLException {
    Statement s = lease.statement();
    for (Part p : group) {
      s.addBatch(p.sql().text());
    }
    return s.executeLargeBatch();
  }

  private static long[] preparedBatch(ShardLease lease, List<Part> group, BatchCall call) throws SQLException {
    PreparedStatement ps = lease.prepare(group.get(0).sql().text(), call.wantKeys());
    call.configure(lease, ps);
    for (Part p : group) {
      call.bind(ps, p.index(), p.sql());
      ps.addBatch();
    }
    return ps.executeLargeBatch();
  }

  private static SQLException failed(SQLException cause, long[] counts, int shard) {
    return new BatchUpdateException("Shardex: batch failed on shard " + shard + ": " + cause.getMessage()
        + " (entries for other shards may have run; counts are in the caller's order)", cause.getSQLState(),
        cause.getErrorCode(), counts, cause);
  }
}
