package dev.shardex.driver.sql;

/**
 * What a SELECT asks of a merge when it runs on several shards. A plain concatenation of the
 * shards' rows is exact only when all of these are false; anything else needs the merge stage.
 */
public record SelectShape(
    boolean orderBy, boolean limit, boolean aggregates, boolean groupBy, boolean distinct, boolean union,
    boolean lockingRead) {
  public static final SelectShape NONE = new SelectShape(false, false, false, false, false, false, false);

  /** The first feature that needs a real merge, or null when concatenation is exact. */
  public String needsMerge() {
    if (aggregates) {
      return "aggregate functions";
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
    return union ? "UNION" : null;
  }
}
