package dev.shardex.driver.sql;

import java.util.List;
import net.sf.jsqlparser.expression.Expression;

/**
 * How a SELECT that runs on several shards is rewritten and merged back into the answer one
 * server would give.
 *
 * <p>Every shard runs {@code shardSql} (plus {@code LIMIT n+m} when a limit can be pushed down),
 * which returns the caller's columns first and then hidden ones: the sort keys, group keys and
 * partial aggregates the merge needs (AVG travels as SUM and COUNT). {@code params} lists which of
 * the statement's parameters the rewritten text binds, in order. Columns are 1-based shard
 * columns; {@code hidden} trailing columns are never shown to the caller. {@code count}, for an
 * ungrouped SELECT without DISTINCT or HAVING (else null), is the text (and its parameters) that
 * returns a constant for each row {@code shardSql} returns: a shard counts it under the same LIMIT
 * when a buffered step asks its count first.
 */
public record MergeSpec(
    String shardSql,
    int[] params,
    int hidden,
    boolean aggregate,
    List<Slot> slots,
    List<Integer> groupKeys,
    List<SortKey> order,
    boolean distinct,
    ValueSource limit,
    ValueSource offset,
    Expression having,
    java.util.Map<Expression, Integer> havingRefs,
    NumberedParameters.Text count) {

  /** What a shard column holds, for the aggregating merge. */
  public enum Fold {
    /** a plain value or group key: equal within a group, the first one is kept */
    FIRST,
    COUNT,
    SUM,
    MIN,
    MAX,
    /** a COUNT(DISTINCT x) argument: the distinct non-null values are collected and counted */
    DISTINCT_VALUES,
    /** a SUM(DISTINCT x) argument: the distinct non-null values are collected and added up */
    DISTINCT_SUM,
    /** an AVG(DISTINCT x) argument: the distinct non-null values are collected and averaged */
    DISTINCT_AVG
  }

  /**
   * One shard column: how partial values fold together, and, for the caller's columns, what the
   * caller sees (an AVG divides its SUM column by its COUNT column {@code avgCount}). {@code label}
 * is set for a rewritten caller's column whose label came from a literal: its ?N markers are
 * filled with the execution's values, as the server would have printed them.
   */
  public record Slot(Fold fold, int avgCount, String aggregateText, String label) {
    public Slot(Fold fold, int avgCount, String aggregateText) {
      this(fold, avgCount, aggregateText, null);
    }
  }

  /**
   * A sort key on a shard column (1-based); MySQL puts NULLs first ascending, last descending. A
   * negative column -k is the k-th hidden column, whose position is known only once SELECT * has
   * been expanded by the shard: visible columns + k.
   */
  public record SortKey(int column, boolean ascending) {
    public SortKey resolve(int visible) {
      return column < 0 ? new SortKey(visible - column, ascending) : this;
    }
  }

  public boolean pushesLimit() {
    return !aggregate && !distinct && limit != null;
  }

  /**
   * The merge the client runs, for EXPLAIN ROUTE: groups and how each column folds, HAVING, DISTINCT,
   * the sort keys, LIMIT/OFFSET and the hidden columns dropped (columns are the shards' result columns).
   */
  public String describe(Object[] values) {
    List<String> parts = new java.util.ArrayList<>();
    if (aggregate) {
      parts.add(groupKeys.isEmpty() ? "fold every shard's row into one group"
          : "fold rows with equal " + columns(groupKeys) + " into one group each");
      List<String> folds = new java.util.ArrayList<>();
      for (int i = 0; i < slots.size(); i++) {
        Slot s = slots.get(i);
        if (s.fold() != Fold.FIRST) {
          folds.add("col " + (i + 1) + " " + s.fold() + (s.avgCount() > 0 ? " / col " + s.avgCount() + " (AVG)" : ""));
        }
      }
      if (!folds.isEmpty()) {
        parts.add("aggregates " + String.join(", ", folds));
      }
    }
    if (having != null) {
      parts.add("HAVING " + having + " on the merged groups");
    }
    if (distinct) {
      parts.add("DISTINCT on the merged rows");
    }
    if (!order.isEmpty()) {
      List<String> keys = new java.util.ArrayList<>();
      for (SortKey k : order) {
        keys.add((k.column() < 0 ? "hidden col " + (-k.column()) : "col " + k.column()) + (k.ascending() ? " ASC" : " DESC"));
      }
      parts.add("ORDER BY " + String.join(", ", keys) + (aggregate || distinct ? " after the merge"
          : " (k-way merge of the shards' sorted rows)"));
    } else if (aggregate && !groupKeys.isEmpty()) {
      parts.add("ORDER BY the group columns (as MariaDB returns groups)");
    }
    if (limit != null) {
      parts.add("LIMIT " + text(limit, values) + (offset == null ? "" : " OFFSET " + text(offset, values))
          + (pushesLimit() ? " (each shard returns at most LIMIT + OFFSET rows)" : ""));
    }
    if (hidden > 0) {
      parts.add(hidden + " hidden column" + (hidden == 1 ? "" : "s") + " dropped");
    }
    return "merge on the client: " + (parts.isEmpty() ? "concatenate" : String.join("; ", parts));
  }

  private static String columns(List<Integer> cols) {
    return (cols.size() == 1 ? "col " : "cols ") + String.join(", ", cols.stream().map(String::valueOf).toList());
  }

  private static String text(ValueSource v, Object[] values) {
    if (v instanceof ValueSource.Param p) {
      return p.index() < values.length ? String.valueOf(values[p.index()]) : "?";
    }
    return v instanceof ValueSource.Literal l ? String.valueOf(l.value()) : ((ValueSource.Opaque) v).text();
  }
}
