package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.merge.InMemoryResults;
import dev.shardex.driver.plan.Gather;
import dev.shardex.driver.plan.MergePlan;
import dev.shardex.driver.plan.Operator;
import dev.shardex.driver.plan.Values;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.MergeSpec;
import dev.shardex.vocabulary.ShardexError;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A SELECT on several shards that needs the merge stage: sql (the cached rewrite) -> plan (a Route
 * leaf under the merge's operators, {@link MergePlan}) -> run ({@link Runner}). Also fills
 * getGeneratedKeys with sequence ids.
 */
final class MergedQuery {
  private final Cluster cluster;

  MergedQuery(Cluster cluster, ShardSession session) {
    this.cluster = cluster;
  }

  /** getGeneratedKeys after an INSERT whose sequence-filled column Shardex filled: those ids. */
  static Outcome filledKeys(Outcome out, RoutePlan.Fill fill) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    for (long id : fill.ids()) {
      if (id != RoutePlan.Fill.KEEP) {
        rows.add(new Object[] {id});
      }
    }
    return Outcome.count(out.updateCount(), InMemoryResults.of(List.of("GENERATED_KEY"), List.of(Types.BIGINT), rows),
        out.insertId());
  }

  /**
   * The tree: a Route leaf ({@link Gather}) sending the rewritten text, under the client's merge
   * operators. {@code windows}: whether its window functions are each partitioned by a shard key.
   */
  Operator plan(RoutePlan plan, Object[] values, MergeSource merge, Statement owner, SessionReads reads,
      dev.shardex.driver.sql.WindowRule windows) throws SQLException {
    String shards = Router.join(plan.shards());
    MergeSpec spec = cluster.templates().merge(merge.mergeText(), shards, windows);
    String text = shardText(spec, values, shards, merge.limitSlack());
    ShardCall call = call(text, spec.params(), merge, owner, false);
    Gather.Count count = count(spec, values, merge, owner, reads);
    return MergePlan.of(spec, new Gather(plan, text, reads == null ? call : reads.wrap(call), spec.describe(values), count));
  }

  /** The text (or its count, as a derived table's) on one shard, bound. */
  private static ShardCall call(String text, int[] params, MergeSource merge, Statement owner, boolean count) {
    return (lease, shard, p) -> {
      String sql = p.hide(text, shard);
      PreparedStatement ps = lease.prepare(count ? "SELECT COUNT(*) FROM (" + sql + ") shx_n" : sql, false);
      ShardexStatement.configure(owner, lease, ps);
      merge.bindChosen(ps, params);
      ps.execute();
      return ps;
    };
  }

  /**
   * The count a buffered step that refuses past the cap asks first (issue 20: refused before its rows
   * cross the wire), or null: for a step that does not count first, a merge that folds rows (its
   * shards' rows are not its rows), a SELECT with DISTINCT or HAVING, or a LIMIT within the cap (it is never refused). The merge returns
   * min(max(sum - offset, 0), limit) rows of the shards' sum; past the cap iff limit > cap and sum > cap + offset.
   */
  private Gather.Count count(MergeSpec spec, Object[] values, MergeSource merge, Statement owner, SessionReads reads)
      throws SQLException {
    long cap = cluster.config().maxMergeRows();
    if (!merge.countsFirst() || spec.count() == null || !spec.pushesLimit() || longValue(spec.limit(), values) <= cap) {
      return null;
    }
    long offset = spec.offset() == null ? 0 : longValue(spec.offset(), values);
    String rows = spec.count().sql() + " LIMIT " + (longValue(spec.limit(), values) + offset); // shardText checked it
    ShardCall call = call(rows, spec.count().order(), merge, owner, true);
    return new Gather.Count(reads == null ? call : reads.wrap(call), cap + offset, cap);
  }

  /**
   * The rewritten text; LIMIT n OFFSET m goes down as LIMIT n+m, within shardex.maxMergeRows (and
   * {@code slack} rows more: a buffered step's LIMIT cap+1).
   */
  String shardText(MergeSpec spec, Object[] values, String shards, long slack) throws SQLException {
    if (!spec.pushesLimit()) {
      return spec.shardSql();
    }
    long limit = longValue(spec.limit(), values);
    long offset = spec.offset() == null ? 0 : longValue(spec.offset(), values);
    long max = cluster.config().maxMergeRows();
    if (limit > max + slack || offset > max + slack - limit) {
      throw ShardexError.CROSS_SHARD.exception("SELECT with LIMIT " + limit + " OFFSET " + offset, shards,
          "each shard would have to return " + (limit + offset) + " rows, more than shardex.maxMergeRows=" + max,
          "page by key ranges (WHERE sort_key > last_seen) instead of large offsets, or raise shardex.maxMergeRows");
    }
    return spec.shardSql() + " LIMIT " + (limit + offset);
  }

  private static long longValue(dev.shardex.driver.sql.ValueSource source, Object[] values) throws SQLException {
    return Values.whole(source, values, 0);
  }
}
