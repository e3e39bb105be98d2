package dev.shardex.driver.sql;

/**
 * What a SELECT asks of a merge when it runs on several shards. A plain concatenation of the
 * shards' rows is exact only when all of these are false; anything else needs the merge stage.
 */
public record SelectShape(
    boolean orderBy, boolean limit, boolean aggregates, boolean groupBy, boolean distinct, boolean union,
    boolean lockingRead, boolean nested) {
  public static final SelectShape NONE = new SelectShape(false, false, false, false, false, false, false, false);

  public SelectShape(boolean orderBy, boolean limit, boolean aggregates, boolean groupBy, boolean distinct,
      boolean union, boolean lockingRead) {
    this(orderBy, limit, aggregates, groupBy, distinct, union, lockingRead, false);
  }

  /** The same shape, marked as holding a subquery that aggregates, groups, de-duplicates or limits. */
  public SelectShape withNested() {
    return new SelectShape(orderBy, limit, aggregates, groupBy, distinct, union, lockingRead, true);
  }

  /** Whether the merge stage can combine it: no UNION and no aggregating/limiting subquery. */
  public boolean mergeable() {
    return !union && !nested;
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
