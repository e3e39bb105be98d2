package dev.shardex.driver.plan;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * EXPLAIN ROUTE's rows for an operator tree: one row per node, depth first, numbered "1", "1.1"...;
 * a node that sends SQL gives one row per shard (or step) instead, with the text sent. Columns:
 * shard_id, sql_sent, merge (as before the tree), then step, operator, round_trips.
 */
public final class Explain {
  public static final List<String> COLUMNS = List.of("shard_id", "sql_sent", "merge", "step", "operator", "round_trips");
  public static final List<String> ANALYSED = List.of("step", "operator", "rows", "round_trips", "ms", "held_bytes");

  private Explain() {}

  public static List<Object[]> rows(Operator root, Object[] values) throws SQLException {
    List<Object[]> out = new ArrayList<>();
    for (Map.Entry<String, Operator> node : Runner.walk(root)) {
      Operator op = node.getValue();
      List<Object[]> sent = op.sent(values);
      if (sent.isEmpty()) {
        out.add(new Object[] {null, null, null, node.getKey(), op.describe(), op.roundTrips()});
      }
      for (Object[] s : sent) {
        out.add(new Object[] {s[0], s[1], s[2], node.getKey(), op.describe(), op.roundTrips()});
      }
    }
    return out;
  }

  /**
   * Runs the tree, reads its rows to the end (and drops them), and gives each node's figures: the
   * rows it returned (NULL where they streamed through), the round trips and the milliseconds its
   * opening took, its inputs' included, and the heap its rows took where it holds them (an
   * estimate, {@code RowsResultSet.heldBytes}; a node opened per batch: its largest batch).
   */
  public static List<Object[]> analyse(Operator root, Runner run) throws SQLException {
    long start = System.nanoTime();
    long rows = 0;
    try (ResultSet rs = run.open(root)) {
      while (rs.next()) {
        rows++;
      }
    }
    run.finish(root, rows, (System.nanoTime() - start) / 1e6);
    List<Object[]> out = new ArrayList<>();
    for (Map.Entry<String, Operator> node : Runner.walk(root)) {
      Runner.Figures f = run.figures(node.getValue());
      out.add(new Object[] {node.getKey(), node.getValue().describe(), f == null || f.rows() < 0 ? null : f.rows(),
          f == null ? null : f.roundTrips(), f == null ? null : String.format(Locale.ROOT, "%.3f", f.millis()),
          f == null || f.bytes() < 0 ? null : f.bytes()});
    }
    return out;
  }
}
