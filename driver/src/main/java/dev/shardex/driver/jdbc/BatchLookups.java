package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.execute.HeldWrites;
import dev.shardex.driver.execute.LookupBatch;
import dev.shardex.driver.execute.LookupWrites;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A prepared batch of INSERTs into a table with lookup indexes: each entry is routed keeping what
 * it must do to the lookups, then the batch runs shard by shard as any other inside one claim of
 * all its entries ({@link LookupBatch}). Counts and errors as one server's batch gives them: an
 * entry that fails on a duplicate unique value counts {@link Statement#EXECUTE_FAILED}, the others
 * run, and the batch then throws a {@link BatchUpdateException} with SQLState 23000 and code 1062.
 * Other writes to such tables (REPLACE, ON DUPLICATE KEY UPDATE, UPDATE, DELETE) run entry by entry.
 */
final class BatchLookups {
  /** Runs the batch's entries on their shards, given each entry's plan (null: the entry runs nothing). */
  interface Run {
    long[] run(List<RoutePlan> plans) throws SQLException;
  }

  private final Cluster cluster;
  private final ShardSession session;
  private final RouteContext routing;
  private final List<LookupWork> works = new ArrayList<>();

  BatchLookups(Cluster cluster, ShardSession session) {
    this.cluster = cluster;
    this.session = session;
    this.routing = cluster.routeContext(session.transactionShard(), session.heldGuards());
  }

  /** Whether a batch of {@code t} claims its entries as one: a plain INSERT or INSERT IGNORE. */
  static boolean claimable(RouteTemplate t) {
    return t.type() == StatementType.INSERT && (t.upsertKind() == null || t.insertIgnore());
  }

  /** Routes the next entry, keeping its lookup work. */
  RoutePlan route(RouteTemplate t, Object[] values) throws SQLException {
    RoutePlan plan = Router.route(t, values, routing);
    works.add(routing.lookupWork());
    return plan;
  }

  /**
   * Claims the entries of the routed batch (committed, their values locked), runs it (held
   * uncommitted in autocommit: one commit per shard, not per entry, and a crash rolls the batch
   * back: {@link HeldWrites}), commits the rows, then lets the claim end (the locks go off the
   * caller's path); throws for the entries that failed. A batch that failed on its shards keeps
   * what ran there, as it would without lookups (the claim committed first: an entry may be
   * extra, never missing).
   */
  long[] run(List<RoutePlan> plans, Run shards) throws SQLException {
    session.checkScope(shardsOf(plans), true); // a refused batch claims nothing
    LookupWrites writes = new LookupWrites(cluster.directory(), session,
        (table, column) -> cluster.schemas().of(table).uniqueKeyOn(column));
    try (LookupBatch batch = LookupBatch.claim(writes, cluster.directory(), works, plans);
        HeldWrites held = session.holdWrites()) {
      long[] counts;
      try {
        counts = shards.run(kept(batch, plans.size()));
      } catch (SQLException | RuntimeException e) {
        commitAfter(held, e);
        if (e instanceof BatchUpdateException b) {
          throw reported(batch, b);
        }
        throw e;
      }
      held.commit();
      return counts(batch, counts);
    }
  }

  private static List<RoutePlan> kept(LookupBatch batch, int entries) {
    List<RoutePlan> kept = new ArrayList<>();
    for (int i = 0; i < entries; i++) {
      kept.add(batch.plan(i));
    }
    return kept;
  }

  /** Commits the held rows that ran before the batch failed; a failure to commit joins the batch's error. */
  private static void commitAfter(HeldWrites held, Throwable failure) {
    try {
      held.commit();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  private static List<Integer> shardsOf(List<RoutePlan> plans) {
    TreeSet<Integer> shards = new TreeSet<>();
    plans.forEach(p -> shards.addAll(p.shards()));
    return List.copyOf(shards);
  }

  /** The counts, with a failed entry's EXECUTE_FAILED and a skipped one's 0; a BatchUpdateException when any failed. */
  private static long[] counts(LookupBatch batch, long[] counts) throws BatchUpdateException {
    SQLException first = claimed(batch, counts);
    if (first == null) {
      return counts;
    }
    throw new BatchUpdateException(first.getMessage(), first.getSQLState(), first.getErrorCode(), counts, first);
  }

  /** A batch its shards failed: the same error, its counts with the claim's failures and skips, the claim's 1062s chained. */
  private static BatchUpdateException reported(LookupBatch batch, BatchUpdateException e) {
    long[] counts = e.getLargeUpdateCounts() == null ? new long[0] : e.getLargeUpdateCounts().clone();
    SQLException claimed = claimed(batch, counts);
    BatchUpdateException out = new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), counts,
        e.getCause() == null ? e : e.getCause());
    if (claimed != null) {
      out.setNextException(claimed);
    }
    return out;
  }

  /** Marks the entries the claim failed (EXECUTE_FAILED) or left without a row (0); returns their 1062s, chained, or null. */
  private static SQLException claimed(LookupBatch batch, long[] counts) {
    SQLException first = null;
    for (int i = 0; i < counts.length; i++) {
      SQLException failure = batch.failure(i);
      if (failure != null) {
        counts[i] = Statement.EXECUTE_FAILED;
        first = chain(first, failure);
      } else if (batch.plan(i) == null) {
        counts[i] = 0;
      }
    }
    return first;
  }

  private static SQLException chain(SQLException first, SQLException next) {
    if (first != null) {
      first.setNextException(next);
      return first;
    }
    return next;
  }
}
