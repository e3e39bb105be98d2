package dev.shardex.driver.execute;

import dev.shardex.directory.ShardexError;
import dev.shardex.driver.merge.Closing;
import dev.shardex.driver.merge.SortedMergeResultSet;
import dev.shardex.driver.merge.InMemoryResults;
import dev.shardex.driver.merge.ShardResultSet;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * execute stage: runs a plan's physical statements and hands their results to the merge stage.
 *
 * <p>Order matters in two places. The transaction scope is checked before the first shard runs,
 * so a refused plan has changed nothing. A query's connection is released by its result set's
 * close (not here), so an autocommit SELECT holds its connection exactly as long as the caller
 * reads; an update's connection is released here, after its generated keys were copied.
 */
public final class PlanExecutor {
  private PlanExecutor() {}

  public static Outcome execute(RoutePlan plan, ShardAccess access, ShardCall call, boolean wantKeys, Statement owner,
      String what, Executor pool) throws SQLException {
    if (plan.fanout() != Fanout.DDL) {
      access.checkScope(plan.shards(), plan.write());
    }
    return switch (plan.fanout()) {
      case ONE -> one(plan, access, call, wantKeys, owner);
      case CONCAT, MERGE -> new Outcome(SortedMergeResultSet.concat(parallel(plan, access, call, owner, pool), owner), -1, null);
      case REPLICATE, SUM, DDL -> everywhere(plan, access, call, what);
    };
  }

  /**
   * Runs a read on every shard of the plan at once on the bounded fan-out pool and returns the
   * shards' result sets in shard order; if any shard fails, the others are closed and its error,
   * naming the shard, is thrown.
   */
  public static List<ShardResultSet> parallel(RoutePlan plan, ShardAccess access, ShardCall call, Statement owner,
      Executor pool) throws SQLException {
    List<CompletableFuture<ShardResultSet>> futures = new ArrayList<>();
    for (int shard : plan.shards()) {
      futures.add(CompletableFuture.supplyAsync(() -> {
        try {
          return readOne(shard, plan, access, call, owner);
        } catch (SQLException e) {
          throw new CompletionException(e);
        }
      }, pool));
    }
    List<ShardResultSet> parts = new ArrayList<>();
    SQLException error = null;
    for (CompletableFuture<ShardResultSet> f : futures) {
      try {
        parts.add(f.join());
      } catch (CompletionException e) {
        SQLException cause = e.getCause() instanceof SQLException sql ? sql
            : ShardexError.SHARD_READ_FAILED.withCause(e.getCause(), e.getCause());
        if (error == null) {
          error = cause;
        } else {
          error.setNextException(cause);
        }
      }
    }
    if (error != null) {
      closeQuietly(parts.toArray(new AutoCloseable[0]));
      throw error;
    }
    return parts;
  }

  private static ShardResultSet readOne(int shard, RoutePlan plan, ShardAccess access, ShardCall call, Statement owner)
      throws SQLException {
    ShardLease lease = access.acquire(shard, false, true);
    Statement st = null;
    try {
      access.metrics().roundTrip();
      st = call.run(lease.connection(), shard, plan);
      Statement physical = st;
      return new ShardResultSet(st.getResultSet(), owner, () -> Closing.closeAll(List.of(physical, lease)));
    } catch (SQLException e) {
      closeQuietly(st, lease);
      throw lease.translate(e);
    } catch (RuntimeException e) {
      closeQuietly(st, lease); // the connection goes back even when the failure is a bug
      throw e;
    }
  }

  private static Outcome one(RoutePlan plan, ShardAccess access, ShardCall call, boolean wantKeys, Statement owner)
      throws SQLException {
    ShardLease lease = access.acquire(plan.single(), plan.write(), true);
    Statement st = null;
    try {
      access.metrics().roundTrip();
      st = call.run(lease.connection(), plan.single(), plan);
      ResultSet rs = st.getResultSet();
      if (rs != null) {
        Statement physical = st;
        return new Outcome(new ShardResultSet(rs, owner, () -> Closing.closeAll(List.of(physical, lease))), -1, null);
      }
      long count = st.getLargeUpdateCount();
      ResultSet keys = wantKeys ? InMemoryResults.copy(st.getGeneratedKeys()) : null;
      Closing.closeAll(List.of(st, lease));
      return Outcome.count(count, keys);
    } catch (SQLException e) {
      closeQuietly(st, lease);
      throw lease.translate(e);
    } catch (RuntimeException e) {
      closeQuietly(st, lease);
      throw e;
    }
  }

  /** A write on several shards: all are tried; a partial failure names who applied and who did not. */
  private static Outcome everywhere(RoutePlan plan, ShardAccess access, ShardCall call, String what) throws SQLException {
    long total = 0;
    long first = -1;
    List<Integer> applied = new ArrayList<>();
    List<Integer> failed = new ArrayList<>();
    SQLException error = null;
    java.sql.SQLWarning report = null;
    boolean mayPin = plan.fanout() != Fanout.DDL;
    for (int shard : plan.shards()) {
      try (ShardLease lease = access.acquire(shard, true, mayPin)) {
        access.metrics().roundTrip();
        try (Statement st = call.run(lease.connection(), shard, plan)) {
          long n = Math.max(0, st.getLargeUpdateCount());
          total += n;
          first = first < 0 ? n : first;
          applied.add(shard);
          java.sql.SQLWarning line = new java.sql.SQLWarning("Shardex: shard " + shard + ": applied", "01000");
          if (report == null) {
            report = line;
          } else {
            report.setNextWarning(line);
          }
        } catch (SQLException e) {
          throw lease.translate(e);
        }
      } catch (SQLException e) {
        failed.add(shard);
        if (error == null) {
          error = e;
        } else {
          error.setNextException(e);
        }
      }
    }
    if (error != null) {
      if (applied.isEmpty()) {
        throw error;
      }
      ShardexError partial = plan.fanout() == Fanout.DDL ? ShardexError.DDL_PARTIAL : ShardexError.WRITE_PARTIAL;
      throw partial.withCause(error, what, join(applied), join(failed), firstLine(error.getMessage()));
    }
    long count = plan.fanout() == Fanout.SUM ? total : Math.max(first, 0);
    return new Outcome(null, count, null, plan.fanout() == Fanout.DDL ? report : null);
  }

  private static void closeQuietly(AutoCloseable... all) {
    try {
      Closing.closeAll(java.util.Arrays.asList(all));
    } catch (SQLException ignored) {
      // the statement's own error is the one worth reporting
    }
  }

  private static String join(List<Integer> shards) {
    StringBuilder s = new StringBuilder();
    shards.forEach(id -> s.append(s.length() == 0 ? "" : ", ").append(id));
    return s.toString();
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse(s);
  }
}
