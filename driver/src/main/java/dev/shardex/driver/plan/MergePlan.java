package dev.shardex.driver.plan;

import dev.shardex.driver.sql.MergeSpec;
import dev.shardex.driver.sql.MergeSpec.SortKey;
import java.util.List;

/**
 * The client's part of a SELECT merged across shards, as operators over its Route ({@link Gather}),
 * as its {@link MergeSpec} says. Sorted and limited rows stream through a {@link MergeSort};
 * grouped, aggregated and DISTINCT results are buffered (bounded by shardex.maxMergeRows) and go
 * Aggregate -> Filter (HAVING) -> Distinct -> Sort -> Limit -> Project.
 */
public final class MergePlan {
  private MergePlan() {}

  public static Operator of(MergeSpec spec, Gather route) {
    if (!spec.aggregate() && !spec.distinct()) {
      return new MergeSort(route, spec.order(), spec.offset(), spec.limit(), spec.hidden());
    }
    String shards = route.shards();
    Operator op = route;
    if (spec.aggregate()) {
      op = new Aggregate(op, spec, shards);
      if (spec.having() != null) {
        op = new Filter(op, spec.having(), spec.havingRefs(), shards);
      }
    }
    if (spec.distinct()) {
      op = new Distinct(op, spec.hidden(), shards);
    }
    List<SortKey> order = !spec.order().isEmpty() ? spec.order()
        : spec.groupKeys().stream().map(k -> new SortKey(k, true)).toList(); // MariaDB returns groups in key order
    if (!order.isEmpty()) {
      op = new Sort(op, order, spec.hidden());
    }
    if (spec.limit() != null || spec.offset() != null) {
      op = new Limit(op, spec.offset(), spec.limit());
    }
    return new Project(op, spec.hidden(), spec);
  }
}
