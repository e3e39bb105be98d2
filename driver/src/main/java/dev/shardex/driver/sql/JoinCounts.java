package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * A SELECT over a cross-shard join that only counts its rows ({@code COUNT(*)}, {@code COUNT(col)},
 * as list screens count their pages), with no GROUP BY, HAVING, DISTINCT or ORDER BY: its select list
 * becomes the counted columns, so the lookup join produces the joined rows and the client counts
 * them (rows, or non-NULL values of the column), exactly as one server would.
 */
final class JoinCounts {
  private JoinCounts() {}

  /** The counts, with the select list rewritten to the counted columns; null when the statement is not such a count. */
  static List<JoinSplit.Count> of(PlainSelect select) {
    if (select.getGroupBy() != null || select.getHaving() != null || select.getDistinct() != null
        || select.getOrderByElements() != null || select.getSelectItems().isEmpty()) {
      return null;
    }
    List<JoinSplit.Count> counts = new ArrayList<>();
    List<SelectItem<?>> columns = new ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      if (!(item.getExpression() instanceof Function f) || !f.getName().equalsIgnoreCase("COUNT") || f.isDistinct()
          || f.isUnique() || f.getKeep() != null) {
        return null;
      }
      String label = item.getAlias() != null ? item.getAlias().getName().replace("`", "") : f.toString();
      if (f.isAllColumns() || f.getParameters() != null && f.getParameters().size() == 1
          && f.getParameters().get(0) instanceof AllColumns) {
        counts.add(new JoinSplit.Count(label, -1));
      } else if (f.getParameters() != null && f.getParameters().size() == 1 && f.getParameters().get(0) instanceof Column c) {
        counts.add(new JoinSplit.Count(label, columns.size()));
        columns.add(SelectItem.from(c, new Alias("__shx_c" + columns.size(), true)));
      } else {
        return null;
      }
    }
    if (counts.stream().anyMatch(c -> c.label().toLowerCase(Locale.ROOT).contains("?"))) {
      return null;
    }
    select.setSelectItems(columns);
    return counts;
  }
}
