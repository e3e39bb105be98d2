package dev.shardex.driver.execute;

import dev.shardex.directory.Lookup;
import dev.shardex.directory.TableDef;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** An INSERT's rows as lookup maintenance sees them: the plan without the rows INSERT IGNORE skips, and MySQL's duplicate-key error. */
final class LookupRows {
  private LookupRows() {}

  /** The plan without the skipped rows (each shard keeps its others); null when no row is left. */
  static RoutePlan without(RoutePlan plan, int[] rowShards, Set<Integer> skipped) {
    Map<Integer, List<Integer>> kept = new TreeMap<>();
    for (int r = 0; r < rowShards.length; r++) {
      if (!skipped.contains(r)) {
        kept.computeIfAbsent(rowShards[r], s -> new ArrayList<>()).add(r);
      }
    }
    if (kept.isEmpty()) {
      return null;
    }
    Map<Integer, int[]> rows = new TreeMap<>();
    kept.forEach((shard, list) -> rows.put(shard, list.stream().mapToInt(Integer::intValue).toArray()));
    return new RoutePlan(Fanout.SUM, List.copyOf(rows.keySet()), true, null, List.of(), plan.guards(), Map.copyOf(rows),
        plan.fill(), null);
  }

  /**
   * The error one server gives for a duplicate: SQLState 23000, vendor code 1062, its text; the
   * cause says where the row that holds the value lives.
   */
  static SQLIntegrityConstraintViolationException duplicate(TableDef def, Lookup l, String v, String keyName,
      String holder, Object key) {
    var e = new SQLIntegrityConstraintViolationException("Duplicate entry '" + v + "' for key '" + keyName + "'", "23000", 1062);
    e.initCause(new IllegalStateException("Shardex: lookup " + def.name() + "." + l.column() + " is unique and value '" + v
        + "' belongs to the row of " + def.keyColumn() + " " + holder + " (this row's " + def.keyColumn() + " is " + key
        + "); change the value, or delete that row first"));
    return e;
  }
}
