package dev.shardex.driver.plan;

import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.merge.Closing;
import dev.shardex.driver.merge.ShardResultSet;
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
 *
 * <p>A buffered step that refuses past the cap ({@link Count}) first asks every shard how many rows
 * its share has ({@code SELECT COUNT(*) FROM (SELECT 1 FROM ... LIMIT n) shx_n}: the rows its text
 * returns, under the same LIMIT, as constants; MergeSpec#count),
 * and is refused by name when they add up past the cap, before any row crosses the wire: the rows
 * of a refused step are neither sent nor buffered by Connector/J.
 */
public final class Gather implements Operator {
  /**
   * The count asked first: {@code call} runs the count text on a shard; the step is refused when the
   * shards' counts add up past {@code above} (the cap plus the merge's OFFSET: the rows the merge
   * returns are then past the cap), its refusal naming {@code cap}.
   */
  public record Count(ShardCall call, long above, long cap) {}

  private final RoutePlan plan;
  private final String text;
  private final ShardCall call;
  private final String merge;
  private final Count count;

  /** {@code merge} is the whole merge's description, shown on each shard's row as EXPLAIN ROUTE always has. */
  public Gather(RoutePlan plan, String text, ShardCall call, String merge) {
    this(plan, text, call, merge, null);
  }

  /** {@code count}: the count asked first, or null. */
  public Gather(RoutePlan plan, String text, ShardCall call, String merge, Count count) {
    this.plan = plan;
    this.text = text;
    this.call = call;
    this.merge = merge;
    this.count = count;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    if (count != null && counted(run) > count.above()) {
      throw Rows.pastCap(count.cap(), "several");
    }
    return SortedMergeResultSet.concat(run.gather(plan, call), run.owner());
  }

  /** The shards' counts added up. */
  private long counted(Runner run) throws SQLException {
    List<ShardResultSet> counts = run.gather(plan, count.call());
    try {
      long sum = 0;
      for (ShardResultSet rs : counts) {
        sum += rs.next() ? rs.getLong(1) : 0;
      }
      return sum;
    } finally {
      Closing.closeAll(counts);
    }
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
    return Integer.toString(plan.shards().size() * (count == null ? 1 : 2));
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
