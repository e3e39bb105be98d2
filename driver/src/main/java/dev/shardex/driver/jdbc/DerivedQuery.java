package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.plan.Derive;
import dev.shardex.driver.plan.Operator;
import dev.shardex.driver.sql.DerivedCut;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;

/**
 * Plans a SELECT whose derived tables or CTEs need a cross-shard merge of their own (the router's
 * {@code JOIN} plan for them): each read first, the statement run over their rows ({@link Derive}).
 * The cut is cached per text, catalog and cap.
 */
final class DerivedQuery {
  private DerivedQuery() {}

  /** The statement's tree, null when it has no derived table or CTE of its own, or SHX1207 with the reason. */
  static Operator plan(Cluster cluster, JoinQuery joins, RouteTemplate t, String text) throws SQLException {
    if (!t.shape().nested() && t.shape().keyGrouped().isEmpty()) {
      return null; // no derived table or CTE that aggregates, de-duplicates or limits: nothing to read first
    }
    long cap = cluster.config().maxMergeRows();
    Object cut = cluster.templates().crossShard(joins.version() + "|derived|" + cap + "|" + text, () -> {
      try {
        DerivedCut.Plan plan = DerivedCut.of(text, cap, joins.catalog());
        return plan == null ? (Object) false : plan;
      } catch (DerivedCut.Refused e) {
        return e.getMessage();
      } catch (RuntimeException e) {
        return "its derived tables could not be cut (" + e + ")";
      }
    });
    if (cut instanceof DerivedCut.Plan plan) {
      return new Derive(plan, joins.catalog(), JoinQuery.MAX_PUSHED_BYTES);
    }
    if (cut instanceof String reason) {
      throw ShardexError.CROSS_SHARD.exception("SELECT", "several", reason,
          "run the derived table as a statement of its own, or add the key to route it to one shard");
    }
    return null;
  }
}
