package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.ShardAccess;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.LookupRoute;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ShardSql;
import dev.shardex.vocabulary.ShardexError;
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
 * Batches grouped per shard: every entry is routed first (so a refused entry fails the batch
 * before anything runs), each shard then runs its share as JDBC batches (one per distinct text:
 * a split multi-row INSERT gives different shards different rows), and the counts come back in
 * the caller's order. An entry on several shards adds up its shards' counts (split rows, scatter
 * writes) or counts once (a GLOBAL table's copies).
 */
final class BatchRunner {
  private BatchRunner() {}

  /** One entry's share on one shard: its position, its text there, and its parameters (prepared only). */
  private record Part(int index, ShardSql sql, Parameters parameters) {}

  static long[] plain(ShardexConnection conn, ShardexStatement owner, List<String> sqls) throws SQLException {
    Jdbc.Step<List<Entry>> entries = () -> {
      List<Entry> out = new ArrayList<>();
      for (String sql : sqls) {
        Analysis a = conn.cluster().templates().plain(sql);
        out.add(new Entry(a.template(), a.literals(), sql, new BoundCall(sql, null, null)));
      }
      return out;
    };
    if (conn.holdsInserts()) {
      return oneByOne(conn, owner, entries.run());
    }
    List<Entry> parsed = entries.run();
    for (Entry e : parsed) {
      if (LookupRoute.maintains(e.template(), conn.cluster().directory())) {
        return oneByOne(conn, owner, parsed); // each keeps its lookups as one statement does
      }
    }
    return heldOr(conn, owner, () -> parsed, () -> plainGrouped(conn, sqls));
  }

  private static long[] plainGrouped(ShardexConnection conn, List<String> sqls) throws SQLException {
    Map<Integer, List<Part>> perShard = new TreeMap<>();
    List<RoutePlan> plans = new ArrayList<>();
    List<RouteTemplate> templates = new ArrayList<>();
    List<Object[]> args = new ArrayList<>();
    try {
      for (int i = 0; i < sqls.size(); i++) {
        String sql = sqls.get(i);
        Analysis a = conn.cluster().templates().plain(sql);
        refuseSessionReads(a.template(), sql);
        RoutePlan plan = conn.batchPlanFor(a.template(), a.literals());
        plans.add(plan);
        templates.add(a.template());
        args.add(a.literals());
        addParts(perShard, plan, i, sql, null);
      }
      return tracked(conn, run(conn, perShard, plans, null), templates, plans, args, sqls);
    } catch (SQLException | RuntimeException e) {
      conn.session().values().failed();
      throw e;
    } finally {
      settle(conn, plans);
    }
  }

  static long[] prepared(ShardexConnection conn, ShardexPreparedStatement owner, List<Parameters> sets) throws SQLException {
    Jdbc.Step<List<Entry>> entries = () -> {
      List<Entry> out = new ArrayList<>();
      for (Parameters set : sets) {
        out.add(new Entry(owner.template(), set.values(), owner.sql(), BoundCall.of(owner, set)));
      }
      return out;
    };
    boolean lookups = LookupRoute.maintains(owner.template(), conn.cluster().directory());
    return conn.holdsInserts() || lookups && !BatchLookups.claimable(owner.template()) ? oneByOne(conn, owner, entries.run())
        : heldOr(conn, owner, entries, () -> preparedGrouped(conn, owner, sets, lookups));
  }

  private static long[] preparedGrouped(ShardexConnection conn, ShardexPreparedStatement owner, List<Parameters> sets,
      boolean lookups) throws SQLException {
    RouteTemplate t = owner.template();
    refuseSessionReads(t, owner.sql());
    BatchLookups kept = lookups ? new BatchLookups(conn.cluster(), conn.session()) : null;
    List<RoutePlan> plans = new ArrayList<>();
    List<Object[]> args = new ArrayList<>();
    try {
      for (int i = 0; i < sets.size(); i++) {
        plans.add(kept == null ? conn.batchPlanFor(t, sets.get(i).values()) : kept.route(t, sets.get(i).values()));
        args.add(sets.get(i).values());
      }
      BatchLookups.Run shards = p -> run(conn, preparedParts(p, owner, sets), p, owner);
      long[] counts = kept == null ? shards.run(plans) : kept.run(plans, shards);
      return tracked(conn, counts, java.util.Collections.nCopies(sets.size(), t), plans, args,
          java.util.Collections.nCopies(sets.size(), owner.sql()));
    } catch (SQLException | RuntimeException e) {
      conn.session().values().failed();
      throw e;
    } finally {
      settle(conn, plans);
    }
  }

  /** Each shard's share of the entries that run (a null plan: the entry runs nothing). */
  private static Map<Integer, List<Part>> preparedParts(List<RoutePlan> plans, ShardexPreparedStatement owner,
      List<Parameters> sets) throws SQLException {
    Map<Integer, List<Part>> perShard = new TreeMap<>();
    for (int i = 0; i < plans.size(); i++) {
      if (plans.get(i) != null) {
        addParts(perShard, plans.get(i), i, owner.sql(), sets.get(i));
      }
    }
    return perShard;
  }

  /** One batch entry, run on its own: its template, values, text and call. */
  private record Entry(RouteTemplate template, Object[] values, String sql, BoundCall call) {}

  /** A batch routed shard by shard; one with an INSERT without its key, inside a transaction, entry by entry instead. */
  private static long[] heldOr(ShardexConnection conn, ShardexStatement owner, Jdbc.Step<List<Entry>> entries,
      Jdbc.Step<long[]> grouped) throws SQLException {
    try {
      return grouped.run();
    } catch (SQLException e) {
      if (!ShardexError.INSERT_NO_KEY.is(e) || conn.getAutoCommit()) {
        throw e;
      }
      return oneByOne(conn, owner, entries.run()); // routing refused it before anything ran
    }
  }

  /**
   * Entry by entry through the pipeline, as single executions: how a batch runs while the
   * connection holds INSERTs waiting for their key (the UPDATEs that give it come batched too).
   */
  private static long[] oneByOne(ShardexConnection conn, ShardexStatement owner, List<Entry> entries)
      throws SQLException {
    long[] counts = new long[entries.size()];
    Arrays.fill(counts, Statement.EXECUTE_FAILED);
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      try {
        counts[i] = conn.run(e.template(), e.values(), e.sql(), e.call(), false, owner, owner).updateCount();
      } catch (SQLException failure) {
        throw new BatchUpdateException("Shardex: batch entry " + (i + 1) + " failed: " + failure.getMessage()
            + " (the entries before it ran; counts are in the caller's order)", failure.getSQLState(),
            failure.getErrorCode(), counts, failure);
      }
    }
    return counts;
  }

  /** A batch runs its entries per shard, out of order: an entry cannot read the values the ones before it leave. */
  private static void refuseSessionReads(RouteTemplate t, String sql) throws SQLException {
    if (t.readsSession()) {
      throw dev.shardex.vocabulary.ShardexError.UNSUPPORTED.exception("LAST_INSERT_ID(), ROW_COUNT() or FOUND_ROWS() in the batch"
          + " entry '" + dev.shardex.driver.sql.SqlLexer.abbreviate(sql) + "' (a batch runs per shard, not in order)",
          "execute that statement on its own, after the statements whose values it reads");
    }
  }

  private static long[] tracked(ShardexConnection conn, long[] counts, List<RouteTemplate> templates, List<RoutePlan> plans,
      List<Object[]> args, List<String> sqls) throws SQLException {
    ValueTracking.afterBatch(conn.session().values(), conn.cluster().schemas(), templates, plans, args, counts, sqls);
    return counts;
  }

  private static void addParts(Map<Integer, List<Part>> perShard, RoutePlan plan, int index, String sql, Parameters p)
      throws SQLException {
    for (int shard : plan.shards()) {
      ShardSql q = plan.sqlFor(sql, shard);
      perShard.computeIfAbsent(shard, k -> new ArrayList<>()).add(new Part(index, q, p));
    }
  }

  /**
   * Runs each shard's share. A shard whose batch failed on some statements and went on with the
   * others (Connector/J's {@code continueBatchOnError}, its default) does not stop the batch: its
   * counts are taken as they are and the other shards run, and the batch then fails as one
   * server's would, with every entry's count ({@link Statement#EXECUTE_FAILED} for the failed
   * ones) and the first failure's error. Any other failure stops the batch at that shard.
   */
  private static long[] run(ShardexConnection conn, Map<Integer, List<Part>> perShard, List<RoutePlan> plans,
      ShardexPreparedStatement prepared) throws SQLException {
    ShardAccess access = conn.session();
    access.checkScope(List.copyOf(perShard.keySet()), true);
    long[] counts = new long[plans.size()];
    Arrays.fill(counts, Statement.EXECUTE_FAILED);
    boolean[] counted = new boolean[plans.size()];
    SQLException failures = null;
    for (Map.Entry<Integer, List<Part>> shard : perShard.entrySet()) {
      try (ShardLease lease = access.acquire(shard.getKey(), true, true)) {
        for (List<Part> group : groups(shard.getValue(), prepared != null)) {
          long[] shardCounts;
          try {
            access.metrics().roundTrip(); // one JDBC batch per shard and text, counted once
            shardCounts = prepared == null ? plainBatch(lease, group) : preparedBatch(lease, group, prepared);
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

  private static long[] preparedBatch(ShardLease lease, List<Part> group, ShardexPreparedStatement owner)
      throws SQLException {
    PreparedStatement ps = lease.prepare(group.get(0).sql().text(), owner.wantKeys());
    ShardexStatement.configure(owner, lease, ps);
    for (Part p : group) {
      owner.bind(ps, p.parameters(), p.sql());
      ps.addBatch();
    }
    return ps.executeLargeBatch();
  }

  private static void settle(ShardexConnection conn, List<RoutePlan> plans) {
    List<AutoCloseable> guards = new ArrayList<>();
    plans.forEach(p -> guards.addAll(p.guards()));
    conn.session().settle(guards);
  }

  private static SQLException failed(SQLException cause, long[] counts, int shard) {
    return new BatchUpdateException("Shardex: batch failed on shard " + shard + ": " + cause.getMessage()
        + " (entries for other shards may have run; counts are in the caller's order)", cause.getSQLState(),
        cause.getErrorCode(), counts, cause);
  }

  static int[] toInts(long[] counts) {
    int[] out = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
    }
    return out;
  }
}
