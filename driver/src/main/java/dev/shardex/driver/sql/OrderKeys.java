package dev.shardex.driver.sql;

import dev.shardex.driver.sql.MergeSpec.Fold;
import dev.shardex.driver.sql.MergeSpec.Slot;
import dev.shardex.driver.sql.MergeSpec.SortKey;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * ORDER BY of a merged SELECT: each term becomes the merged column the merge sorts by (a
 * position, an aggregate's column, a caller's column by name or text, or a hidden one). NULLS
 * FIRST/LAST and expressions over aggregates are refused by name.
 */
final class OrderKeys {
  private OrderKeys() {}

  static List<SortKey> orderKeys(MergeColumns m) throws SQLException {
    List<SortKey> order = new ArrayList<>();
    if (m.select.getOrderByElements() == null) {
      return order;
    }
    for (OrderByElement o : m.select.getOrderByElements()) {
      if (o.getNullOrdering() != null) {
        throw m.unsupported("NULLS FIRST/LAST across shards");
      }
      order.add(new SortKey(column(m, o.getExpression()), o.isAsc()));
    }
    return order;
  }

  private static int column(MergeColumns m, Expression e) throws SQLException {
    if (e instanceof LongValue position) {
      return MergeColumns.position(position);
    } else if (m.star && !m.aggregate) {
      return m.hiddenColumn(e, Fold.FIRST);
    } else if (e instanceof Function f && Aggregates.foldable(f)) {
      return m.aggregateColumn(f);
    } else if (Windows.groupAggregate(e)) { // a window (each shard's, exact) sorts as any column
      throw m.unsupported("ORDER BY an expression over aggregates ('" + e + "') across shards; select it and order by its alias");
    }
    int named = selectedColumnNamed(m, e);
    return named > 0 ? named : m.columnFor(e, Fold.FIRST);
  }

  /**
   * MySQL resolves an unqualified ORDER BY name against the select list first: {@code ORDER BY x}
   * sorts by a selected {@code t.x}. The caller's column (1-based) so selected, or 0. A hidden
   * unqualified copy would be ambiguous in a self-join.
   */
  private static int selectedColumnNamed(MergeColumns m, Expression e) {
    String name = e instanceof Column c && c.getTable() == null ? MergeColumns.bareName(e) : null;
    for (int i = 0; name != null && i < m.visible; i++) {
      SelectItem<?> item = m.items.get(i);
      Slot kind = i < m.columns.size() ? m.columns.get(i) : null;
      if (item.getAlias() == null && item.getExpression() instanceof Column sc
          && name.equals(SqlNames.unquote(sc.getColumnName())) && (kind == null || kind.fold() == Fold.FIRST)) {
        return i + 1;
      }
    }
    return 0;
  }
}
