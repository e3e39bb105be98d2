package dev.shardex.driver.plan;

import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.merge.SortedMergeResultSet;
import dev.shardex.driver.route.RoutePlan;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Route under a client merge: the rewritten SELECT on every shard of the plan at once (the merge's
 * hidden columns, partial aggregates and LIMIT n+m pushed into its text). Opened for a merge that
 * streams it, it hands over each shard's result set ({@code parts}); otherwise the shards' rows one
 * shard after the other.
 */
public final class Gather implements Operator {
  private final RoutePlan plan;
  private final String text;
  private final ShardCall call;
  private final String merge;

  /** {@code merge} is the whole merge's description, shown on each shard's row as EXPLAIN ROUTE always has. */
  public Gather(RoutePlan plan, String text, ShardCall call, String merge) {
    this.plan = plan;
    this.text = text;
    this.call = call;
    this.merge = merge;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    return SortedMergeResultSet.concat(run.gather(plan, call), run.owner());
  }

  /** The shards it reads, as messages name them ("0, 1, 2"). */
  String shards() {
    return dev.shardex.driver.route.Router.join(plan.shards());
  }

  @Override
  public String describe() {
    return "Route: the rewritten SELECT on shards " + shards() + " at once";
  }

  @Override
  public String roundTrips() {
    return Integer.toString(plan.shards().size());
  }

  @Override
  public List<Object[]> sent(Object[] values) {
    List<Object[]> rows = new ArrayList<>();
    for (int shard : plan.shards()) {
      rows.add(new Object[] {shard, text, merge});
    }
    return rows;
  }
}
