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
    ShardCall call = (lease, shard, p) -> {
      PreparedStatement ps = lease.prepare(p.hide(text, shard), false);
      ShardexStatement.configure(owner, lease, ps);
      merge.bindChosen(ps, spec.params());
      ps.execute();
      return ps;
    };
    return MergePlan.of(spec, new Gather(plan, text, reads == null ? call : reads.wrap(call), spec.describe(values)));
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
