package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.ValueOrder;
import dev.shardex.driver.sql.MergeSpec.SortKey;
import dev.shardex.vocabulary.MysqlError;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Sorts buffered rows by their keys with the server's order (NULLs first ascending, the column's
 * case rules). The sort is stable, so rows equal on every key keep the order they came in.
 */
final class Sort implements Operator {
  private final Operator input;
  private final List<SortKey> keys;
  private final int hidden;

  /** {@code hidden}: trailing columns the shards added, so that a key -k resolves to visible + k. */
  Sort(Operator input, List<SortKey> keys, int hidden) {
    this.input = input;
    this.keys = keys;
    this.hidden = hidden;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Rows rows = Rows.read(run.open(input), run.cap(), "");
    int total = rows.meta().getColumnCount();
    List<SortKey> order = resolve(keys, total - hidden, total);
    List<Cell[]> sorted = new ArrayList<>(rows.cells());
    sorted.sort(comparator(order, rows.caseInsensitive()));
    return new Rows(sorted, rows.meta()).result(run);
  }

  /**
   * The keys with hidden positions resolved; a position past the columns (ORDER BY 92) fails as the
   * server fails it, before any row is read.
   */
  static List<SortKey> resolve(List<SortKey> keys, int visible, int total) throws SQLException {
    List<SortKey> out = new ArrayList<>(keys.size());
    for (SortKey k : keys) {
      SortKey r = k.resolve(visible);
      if (r.column() < 1 || r.column() > total) {
        throw MysqlError.UNKNOWN_COLUMN.exception("Unknown column '" + r.column() + "' in 'order clause'");
      }
      out.add(r);
    }
    return out;
  }

  static Comparator<Cell[]> comparator(List<SortKey> keys, boolean[] ci) {
    return (a, b) -> {
      for (SortKey k : keys) {
        int c = ValueOrder.compare(a[k.column() - 1].value(), b[k.column() - 1].value(), ci[k.column() - 1]);
        if (c != 0) {
          return k.ascending() ? c : -c;
        }
      }
      return 0;
    };
  }

  static String text(List<SortKey> keys) {
    List<String> out = new ArrayList<>();
    for (SortKey k : keys) {
      out.add((k.column() < 0 ? "hidden col " + (-k.column()) : "col " + k.column()) + (k.ascending() ? " ASC" : " DESC"));
    }
    return String.join(", ", out);
  }

  @Override
  public String describe() {
    return "Sort by " + text(keys);
  }

  @Override
  public List<Operator> inputs() {
    return List.of(input);
  }
}
