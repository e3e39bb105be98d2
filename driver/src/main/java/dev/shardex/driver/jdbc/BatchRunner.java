package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.BatchCall;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.route.LookupRoute;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ShardSql;
import java.sql.BatchUpdateException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Plans a JDBC batch: every entry is routed first (so a refused entry fails the batch before
 * anything runs), and the routed entries go to {@link Runner#batch}, which runs each shard's share
 * as JDBC batches and gives the counts back in the caller's order. A batch that cannot run so
 * (the connection holds INSERTs waiting for their key; a write that keeps lookup indexes entry by
 * entry) runs entry by entry, each through the pipeline as one execution.
 */
final class BatchRunner {
  private BatchRunner() {}

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
      }
      return tracked(conn, Runner.batch(plans, conn.session(), sqls::get), templates, plans, args, sqls);
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
      BatchCall call = prepared(owner, sets);
      BatchLookups.Run shards = p -> Runner.batch(p, conn.session(), call);
      long[] counts = kept == null ? shards.run(plans) : kept.run(plans, shards);
      return tracked(conn, counts, Collections.nCopies(sets.size(), t), plans, args,
          Collections.nCopies(sets.size(), owner.sql()));
    } catch (SQLException | RuntimeException e) {
      conn.session().values().failed();
      throw e;
    } finally {
      settle(conn, plans);
    }
  }

  /** One prepared statement's parameter sets: bound per entry, with the statement's options. */
  private static BatchCall prepared(ShardexPreparedStatement owner, List<Parameters> sets) {
    return new BatchCall() {
      @Override
      public String sql(int entry) {
        return owner.sql();
      }

      @Override
      public boolean prepared() {
        return true;
      }

      @Override
      public boolean wantKeys() {
        return owner.wantKeys();
      }

      @Override
      public void configure(ShardLease lease, Statement physical) throws SQLException {
        ShardexStatement.configure(owner, lease, physical);
      }

      @Override
      public void bind(PreparedStatement ps, int entry, ShardSql q) throws SQLException {
        owner.bind(ps, sets.get(entry), q);
      }
    };
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
      throw ShardexError.UNSUPPORTED.exception("LAST_INSERT_ID(), ROW_COUNT() or FOUND_ROWS() in the batch"
          + " entry '" + dev.shardex.driver.sql.SqlLexer.abbreviate(sql) + "' (a batch runs per shard, not in order)",
          "execute that statement on its own, after the statements whose values it reads");
    }
  }

  private static long[] tracked(ShardexConnection conn, long[] counts, List<RouteTemplate> templates, List<RoutePlan> plans,
      List<Object[]> args, List<String> sqls) throws SQLException {
    ValueTracking.afterBatch(conn.session().values(), conn.cluster().schemas(), templates, plans, args, counts, sqls);
    return counts;
  }

  private static void settle(ShardexConnection conn, List<RoutePlan> plans) {
    List<AutoCloseable> guards = new ArrayList<>();
    plans.forEach(p -> guards.addAll(p.guards()));
    conn.session().settle(guards);
  }

  static int[] toInts(long[] counts) {
    int[] out = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
    }
    return out;
  }
}
