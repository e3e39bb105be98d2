package dev.shardex.driver.sql;

import java.util.Set;

/**
 * What a SELECT asks of a merge when it runs on several shards. A plain concatenation of the
 * shards' rows is exact only when all of these are false; anything else needs the merge stage.
 * {@code rowScopes} are the SELECT scopes whose rows reach the result (the top level, its UNION
 * branches, derived tables and CTEs); the others are scalar, IN and EXISTS subqueries. Null means
 * every scope (statements that are not SELECTs).
 */
public record SelectShape(
    boolean orderBy, boolean limit, boolean aggregates, boolean groupBy, boolean distinct, boolean union,
    boolean lockingRead, boolean nested, Set<Integer> rowScopes, java.util.List<KeyGrouped> keyGrouped,
    java.util.List<KeyGrouped> windows) {
  public static final SelectShape NONE =
      new SelectShape(false, false, false, false, false, false, false, false, null, java.util.List.of(), java.util.List.of());

  /**
   * Rows computed together that are exact on every shard when one of {@code columns} is the shard
   * key of a SHARDED table in scope {@code scope} (each set of rows then lives on one shard): a
   * derived table's GROUP BY (so it needs no merge of its own), or a window function's PARTITION
   * BY ({@link Windows}). Which columns are keys is known at route time. {@code keyGrouped} holds
   * the derived tables' (their windows included), {@code windows} the top-level SELECT's windows.
   */
  public record KeyGrouped(int scope, java.util.List<ColumnRef> columns) {}

  public SelectShape(boolean orderBy, boolean limit, boolean aggregates, boolean groupBy, boolean distinct,
      boolean union, boolean lockingRead) {
    this(orderBy, limit, aggregates, groupBy, distinct, union, lockingRead, false, null, java.util.List.of(),
        java.util.List.of());
  }

  /** The same shape, marked as holding a subquery that aggregates, groups, de-duplicates or limits. */
  public SelectShape withNested() {
    return new SelectShape(orderBy, limit, aggregates, groupBy, distinct, union, lockingRead, true, rowScopes, keyGrouped,
        windows);
  }

  /** The same shape, knowing which scopes' rows reach the result. */
  public SelectShape withRowScopes(Set<Integer> scopes) {
    return new SelectShape(orderBy, limit, aggregates, groupBy, distinct, union, lockingRead, nested, Set.copyOf(scopes),
        keyGrouped, windows);
  }

  /** The same shape with the derived tables that are exact if grouped by a shard key. */
  public SelectShape withKeyGrouped(java.util.List<KeyGrouped> derived) {
    return new SelectShape(orderBy, limit, aggregates, groupBy, distinct, union, lockingRead, nested, rowScopes,
        java.util.List.copyOf(derived), windows);
  }

  /** The same shape with the top-level SELECT's window functions, each by its PARTITION BY columns. */
  public SelectShape withWindows(java.util.List<KeyGrouped> top) {
    return new SelectShape(orderBy, limit, aggregates, groupBy, distinct, union, lockingRead, nested, rowScopes,
        keyGrouped, java.util.List.copyOf(top));
  }

  /** Whether rows of this scope reach the result (false for scalar, IN and EXISTS subqueries). */
  public boolean rowScope(int scope) {
    return rowScopes == null || rowScopes.contains(scope);
  }

  /** Whether the merge stage can combine it: no UNION and no aggregating/limiting subquery. */
  public boolean mergeable() {
    return !union && !nested;
  }

  /** What keeps the merge stage from combining it (see {@link #mergeable()}), or null. */
  public String unmergeable() {
    return union ? "UNION" : nested ? "subquery (aggregate, GROUP BY, DISTINCT or LIMIT inside)" : null;
  }

  /** The first feature that needs a real merge, or null when concatenation is exact. */
  public String needsMerge() {
    if (aggregates) {
      return "aggregate or window functions";
    }
    if (groupBy) {
      return "GROUP BY";
    }
    if (distinct) {
      return "DISTINCT";
    }
    if (orderBy) {
      return "ORDER BY";
    }
    if (limit) {
      return "LIMIT";
    }
    if (union) {
      return "UNION";
    }
    return nested ? "subquery (aggregate, GROUP BY, DISTINCT or LIMIT inside)" : null;
  }
}
