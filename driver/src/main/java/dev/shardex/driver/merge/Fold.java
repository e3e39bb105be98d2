package dev.shardex.driver.merge;

import dev.shardex.driver.sql.MergeSpec;
import dev.shardex.driver.sql.MergeSpec.Slot;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Folds one column of a group's partial rows (one per shard) into the group's value: sums of
 * COUNT and SUM, the least/greatest of MIN/MAX, the distinct values of COUNT(DISTINCT x), and
 * AVG as the sum of its SUMs over the sum of its COUNTs, with MySQL's scale (+4 decimals).
 */
public final class Fold {
  private final Slot slot;
  private final boolean caseInsensitive;
  private Cell first;
  private Object acc;
  private boolean seen;
  private java.util.Map<Object, Object> distinct;

  public Fold(Slot slot, boolean caseInsensitive) {
    this.slot = slot;
    this.caseInsensitive = caseInsensitive;
  }

  public void add(Cell c) {
    if (!seen) {
      first = c;
      seen = true;
    }
    Object v = c.value();
    switch (slot.fold()) {
      case FIRST -> { }
      case COUNT -> acc = (acc == null ? 0L : (Long) acc) + (v == null ? 0L : ((Number) v).longValue());
      case SUM -> acc = v == null ? acc : acc == null ? v : sum(acc, v);
      case MIN, MAX -> {
        if (v != null && (acc == null || better(v))) {
          acc = c;
        }
      }
      case DISTINCT_VALUES, DISTINCT_SUM, DISTINCT_AVG -> {
        if (distinct == null) {
          distinct = new java.util.HashMap<>();
        }
        if (v != null) {
          distinct.putIfAbsent(ValueOrder.groupingKey(v, caseInsensitive), v);
        }
      }
    }
  }

  private boolean better(Object v) {
    int c = ValueOrder.compare(v, ((Cell) acc).value(), caseInsensitive);
    return slot.fold() == MergeSpec.Fold.MIN ? c < 0 : c > 0;
  }

  private static Object sum(Object a, Object b) {
    if (a instanceof Double || a instanceof Float || b instanceof Double || b instanceof Float) {
      return ((Number) a).doubleValue() + ((Number) b).doubleValue();
    }
    if (a instanceof Long x && b instanceof Long y) {
      return x + y;
    }
    return ValueOrder.decimal((Number) a).add(ValueOrder.decimal((Number) b));
  }

  /** The group's value; {@code count} is the folded COUNT column an AVG divides by. */
  public Cell result(Fold count) {
    return switch (slot.fold()) {
      case FIRST -> first == null ? Cell.NULL : first;
      case COUNT -> Cell.computed(acc == null ? 0L : acc);
      case MIN, MAX -> acc == null ? Cell.NULL : (Cell) acc;
      case DISTINCT_VALUES -> Cell.computed(distinct == null ? 0L : (long) distinct.size());
      case DISTINCT_SUM, DISTINCT_AVG -> distinctTotal();
      case SUM -> count == null ? Cell.computed(acc) : Cell.computed(average(acc, count.acc));
    };
  }

  private Cell distinctTotal() {
    if (distinct == null || distinct.isEmpty()) {
      return Cell.NULL;
    }
    Object total = null;
    for (Object v : distinct.values()) {
      total = total == null ? v : sum(total, v);
    }
    if (total instanceof Long l && slot.fold() == MergeSpec.Fold.DISTINCT_SUM) {
      total = java.math.BigDecimal.valueOf(l); // MySQL's SUM of integers is DECIMAL
    }
    return Cell.computed(slot.fold() == MergeSpec.Fold.DISTINCT_SUM ? total : average(total, (long) distinct.size()));
  }

  private static Object average(Object sum, Object count) {
    long n = count == null ? 0 : ((Number) count).longValue();
    if (sum == null || n == 0) {
      return null;
    }
    if (sum instanceof Double || sum instanceof Float) {
      return ((Number) sum).doubleValue() / n;
    }
    BigDecimal s = ValueOrder.decimal((Number) sum);
    return s.divide(BigDecimal.valueOf(n), Math.max(0, s.scale()) + 4, RoundingMode.HALF_UP);
  }
}
