package dev.shardex.driver.jdbc;

import dev.shardex.driver.Cluster;
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

  /** Claims the entries of the routed batch, runs it, commits the claim; throws for the entries that failed. */
  long[] run(List<RoutePlan> plans, Run shards) throws SQLException {
    session.checkScope(shardsOf(plans), true); // a refused batch claims nothing
    LookupWrites writes = new LookupWrites(cluster.directory(), session,
        (table, column) -> cluster.schemas().of(table).uniqueKeyOn(column));
    try (LookupBatch batch = LookupBatch.claim(writes, cluster.directory(), works, plans)) {
      List<RoutePlan> kept = new ArrayList<>();
      for (int i = 0; i < plans.size(); i++) {
        kept.add(batch.plan(i));
      }
      long[] counts;
      try {
        counts = shards.run(kept);
      } catch (SQLException | RuntimeException e) {
        batch.keepAfter(e);
        throw e;
      }
      batch.commit();
      return reported(batch, counts);
    }
  }

  private static List<Integer> shardsOf(List<RoutePlan> plans) {
    TreeSet<Integer> shards = new TreeSet<>();
    plans.forEach(p -> shards.addAll(p.shards()));
    return List.copyOf(shards);
  }

  /** The counts, with a failed entry's EXECUTE_FAILED and a skipped one's 0; a BatchUpdateException when any failed. */
  private static long[] reported(LookupBatch batch, long[] counts) throws BatchUpdateException {
    SQLException first = null;
    for (int i = 0; i < counts.length; i++) {
      SQLException failure = batch.failure(i);
      if (failure == null) {
        counts[i] = batch.plan(i) == null ? 0 : counts[i];
        continue;
      }
      counts[i] = Statement.EXECUTE_FAILED;
      if (first == null) {
        first = failure;
      } else {
        first.setNextException(failure);
      }
    }
    if (first == null) {
      return counts;
    }
    throw new BatchUpdateException(first.getMessage(), first.getSQLState(), first.getErrorCode(), counts, first);
  }
}
