package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.ValueOrder;
import dev.shardex.driver.sql.JoinSplit;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;

/**
 * The ORDER BY a cross-shard join applies to its joined rows when the driving order is not the
 * answer's (a position, a select alias, a dependent-side column): values compare as the merge
 * stage compares them ({@link ValueOrder}: numbers by value, strings by the column's case
 * sensitivity, NULL first ascending). The sort is stable; ties keep the driving order.
 */
final class JoinOrder {
  private JoinOrder() {}

  static Comparator<Cell[]> of(List<JoinSplit.SortTerm> terms, List<JoinSplit.Item> items, int width,
      ResultSetMetaData meta, int[] stars) throws SQLException {
    int[] column = new int[terms.size()];
    boolean[] desc = new boolean[terms.size()];
    boolean[] ci = new boolean[terms.size()];
    for (int t = 0; t < terms.size(); t++) {
      JoinSplit.SortTerm term = terms.get(t);
      column[t] = term.position() > 0 ? term.position()
          : term.column() != null ? starColumn(items, term, stars, meta) : firstColumn(items, term.item(), stars);
      if (term.position() > 0 && (column[t] < 1 || column[t] > width)) { // a position past the select list
        throw new java.sql.SQLSyntaxErrorException("Unknown column '" + term.position() + "' in 'order clause'", "42S22", 1054);
      }
      desc[t] = term.descending();
      ci[t] = !meta.isCaseSensitive(column[t]);
    }
    return (a, b) -> {
      for (int t = 0; t < column.length; t++) {
        int c = ValueOrder.compare(a[column[t] - 1].value(), b[column[t] - 1].value(), ci[t]);
        if (c != 0) {
          return desc[t] ? -c : c;
        }
      }
      return 0;
    };
  }

  /** The 1-based result column of {@code term.column()} inside the {@code t.*} item it names. */
  private static int starColumn(List<JoinSplit.Item> items, JoinSplit.SortTerm term, int[] stars, ResultSetMetaData meta)
      throws SQLException {
    int first = start(items, term.item(), stars);
    for (int c = first; c < first + stars[items.get(term.item()).dependentSide() ? 1 : 0]; c++) {
      if (meta.getColumnName(c).equalsIgnoreCase(term.column())) {
        return c;
      }
    }
    throw new java.sql.SQLSyntaxErrorException("Unknown column '" + term.column() + "' in 'order clause'", "42S22", 1054);
  }

  private static int start(List<JoinSplit.Item> items, int item, int[] stars) {
    int column = 1;
    for (int i = 0; i < item; i++) {
      JoinSplit.Item it = items.get(i);
      column += it.star() ? stars[it.dependentSide() ? 1 : 0] : 1;
    }
    return column;
  }

  /** The 1-based result column where select item {@code item} starts. */
  private static int firstColumn(List<JoinSplit.Item> items, int item, int[] stars) throws SQLException {
    int column = start(items, item, stars);
    if (items.get(item).star()) {
      throw ShardexError.UNSUPPORTED.exception("ORDER BY a t.* item of a cross-shard join", "order by its columns");
    }
    return column;
  }
}
