package dev.shardex.driver.plan;

import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.route.RoutePlan;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Route: a statement that needs no client step, sent to its shards as the router rewrote it for
 * each (a key's shard; a co-located read on several shards, concatenated; a write everywhere).
 * The hot path runs such a plan without this object ({@link Runner#route}); the tree holds one for
 * EXPLAIN ROUTE and EXPLAIN ANALYZE ROUTE.
 */
public final class Route implements Operator {
  private final RoutePlan plan;
  private final String sql;
  private final ShardCall call;

  /** {@code sql}: the statement as the application wrote it (each shard's text comes from the plan). */
  public Route(RoutePlan plan, String sql, ShardCall call) {
    this.plan = plan;
    this.sql = sql;
    this.call = call;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    return run.route(plan, call);
  }

  @Override
  public String describe() {
    return switch (plan.fanout()) {
      case ONE -> "Route: one shard";
      case CONCAT -> "Route: shards " + dev.shardex.driver.route.Router.join(plan.shards()) + " at once, rows concatenated";
      case SUM -> "Route: every shard named, counts added up";
      case REPLICATE -> "Route: every shard (a GLOBAL table's copies), one shard's count";
      default -> "Route (" + plan.fanout().name().toLowerCase(java.util.Locale.ROOT) + ")";
    };
  }

  @Override
  public String roundTrips() {
    return Integer.toString(plan.shards().size());
  }

  @Override
  public List<Object[]> sent(Object[] values) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    for (int shard : plan.shards()) {
      rows.add(new Object[] {shard, plan.sqlFor(sql, shard).text(), null});
    }
    return rows;
  }
}
