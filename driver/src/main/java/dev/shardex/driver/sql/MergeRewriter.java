package dev.shardex.driver.sql;

import dev.shardex.driver.sql.MergeSpec.Fold;
import dev.shardex.driver.sql.MergeSpec.Slot;
import dev.shardex.driver.sql.MergeSpec.SortKey;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * sql stage, for SELECTs that run on several shards: rewrites the statement into what each shard
 * runs and how the merge stage folds the results (a {@link MergeSpec}). Shardex rewrites the
 * parse tree and prints it back, so the text a shard receives is JSqlParser's rendering of the
 * statement; parameters keep their order through fixed-index markers.
 *
 * <p>The rules: the caller's columns come first; AVG(x) becomes SUM(x) plus a hidden COUNT(x);
 * COUNT(DISTINCT x) becomes x with x added to the GROUP BY ({@link SelectListFold}); ORDER BY,
 * GROUP BY and HAVING terms that are not among the caller's columns become hidden columns
 * ({@link OrderKeys}, {@link GroupHaving}, {@link MergeColumns}); HAVING, ORDER BY and LIMIT are
 * taken off grouped queries (they apply to merged groups); LIMIT n OFFSET m becomes LIMIT n+m on
 * ungrouped ones.
 */
final class MergeRewriter {
  private MergeRewriter() {}

  /**
   * Rewrites a SELECT for the given shards ("0, 1, 2, 3", named in errors). {@code windows}: when
   * the route stage found each of its window functions partitioned by a shard key (each partition on
   * one shard), each shard computes them exactly and they merge as plain columns; else a window is
   * refused here (and run whole by one shard over the rows when they fit the cap, jdbc.JoinQuery#pushed).
   */
  static MergeSpec rewrite(String sql, String shards, WindowRule windows) throws SQLException {
    Select parsed = (Select) Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect select) || parsed.getWithItemsList() != null) {
      throw unsupported(shards, "this SELECT shape (UNION, VALUES or WITH)");
    }
    if (Windows.any(select)) {
      windows(select, shards, windows);
    }
    return build(select, shards);
  }

  /** Window functions are computed by each shard only when each is partitioned by a shard key, over rows not grouped. */
  private static void windows(PlainSelect select, String shards, WindowRule rule) throws SQLException {
    if (!rule.onShards()) {
      String keys = rule.keys().isEmpty() ? "the shard key" : rule.keys();
      throw ShardexError.CROSS_SHARD.exception("SELECT", shards, "a window function not partitioned by " + keys
          + " (each shard would number, rank or add up only its own rows) is not supported",
          "partition each window by it (PARTITION BY " + keys + ", ...), or add the key (key = ? or key IN (...) on one"
              + " shard) to route it to one shard");
    }
    if (select.getGroupBy() != null || select.getHaving() != null
        || select.getSelectItems().stream().anyMatch(i -> Windows.groupAggregate(i.getExpression()))) {
      throw unsupported(shards, "window functions over grouped rows across shards");
    }
  }

  private static MergeSpec build(PlainSelect select, String shards) throws SQLException {
    if (select.getGroupBy() != null && select.getGroupBy().isMysqlWithRollup()) {
      throw unsupported(shards, "GROUP BY ... WITH ROLLUP across shards (its subtotal rows would fold across levels:"
          + " group without ROLLUP and add the subtotals in the application)");
    }
    MergeColumns m = new MergeColumns(select, shards);
    if (m.aggregate && m.star) {
      throw m.unsupported("SELECT * with aggregates or GROUP BY across shards");
    }
    ValueSource limit = null;
    ValueSource offset = null;
    Limit l = select.getLimit();
    if (l != null) {
      limit = value(l.getRowCount());
      offset = l.getOffset() == null ? null : value(l.getOffset());
    }
    if (select.getOffset() != null) {
      offset = value(select.getOffset().getOffset());
    }
    boolean distinct = select.getDistinct() != null;
    List<Integer> groupKeys = List.of();
    if (m.aggregate) {
      SelectListFold.foldItems(m);
      groupKeys = GroupHaving.groupKeys(m);
    } else {
      for (int i = 0; i < m.visible; i++) {
        m.columns.add(new Slot(Fold.FIRST, 0, null));
      }
    }
    List<SortKey> order = OrderKeys.orderKeys(m);
    // without aggregation HAVING filters single rows (MySQL allows it): the shards apply it
    Expression having = m.aggregate ? select.getHaving() : null;
    Map<Expression, Integer> havingRefs = GroupHaving.havingRefs(m, having);
    if (m.aggregate) {
      select.setHaving(null);
      select.setOrderByElements(null);
    }
    select.setLimit(null);
    select.setOffset(null);
    int hidden = m.hiddenItems.size();
    for (SelectItem<?> h : m.hiddenItems) {
      select.addSelectItem(h.getExpression(), h.getAlias());
    }
    if (m.aggregate) {
      m.columns.addAll(m.hiddenSlots);
    }
    NumberedParameters.Text text = NumberedParameters.print(select);
    NumberedParameters.Text count = m.aggregate || distinct || select.getHaving() != null ? null : counted(select);
    return new MergeSpec(text.sql(), text.order(), hidden, m.aggregate, List.copyOf(m.columns), List.copyOf(groupKeys),
        List.copyOf(order), distinct, limit, offset, having, havingRefs, count);
  }

  /**
   * The rows of an ungrouped SELECT without DISTINCT or HAVING, as one constant column each
   * ({@code SELECT 1 FROM ... WHERE ...}, no ORDER BY): the same number of rows under the same
   * LIMIT, for a shard to count as a derived table. The select list and ORDER BY are put back.
   */
  private static NumberedParameters.Text counted(PlainSelect select) {
    List<SelectItem<?>> items = select.getSelectItems();
    List<net.sf.jsqlparser.statement.select.OrderByElement> order = select.getOrderByElements();
    select.setSelectItems(new java.util.ArrayList<>(List.of(new SelectItem<>(new LongValue(1)))));
    select.setOrderByElements(null);
    try {
      return NumberedParameters.print(select);
    } finally {
      select.setSelectItems(items);
      select.setOrderByElements(order);
    }
  }

  static ValueSource value(Expression e) {
    if (e instanceof JdbcParameter p) {
      return new ValueSource.Param(p.getIndex() - 1);
    }
    if (e instanceof LongValue l) {
      // a LIMIT past Long.MAX_VALUE (JSqlParser keeps its text) is a whole number all the same
      return new ValueSource.Literal(l.getBigIntegerValue().bitLength() < 64 ? (Object) l.getValue() : l.getBigIntegerValue());
    }
    return e == null ? null : new ValueSource.Opaque(e.toString());
  }

  static SQLException unsupported(String shards, String what) {
    return ShardexError.CROSS_SHARD.exception("SELECT", shards, what + " is not supported",
        "add the key (key = ? or key IN (...) on one shard) to route it to one shard");
  }
}
