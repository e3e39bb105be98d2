package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;
import net.sf.jsqlparser.statement.select.Values;

/**
 * The shape of a SELECT, as far as merging it across shards cares: ORDER BY, LIMIT, aggregates,
 * GROUP BY, DISTINCT, set operations and locking; and whether a nested SELECT computes something
 * per shard that a concatenation of shards' rows would get wrong.
 */
final class SelectShapes {
  private SelectShapes() {}

  static SelectShape shape(Select select) {
    if (select instanceof ParenthesedSelect p) {
      return shape(p.getSelect());
    }
    boolean order = select.getOrderByElements() != null && !select.getOrderByElements().isEmpty();
    boolean limit = select.getLimit() != null || select.getOffset() != null || select.getFetch() != null;
    boolean locking = select.getForMode() != null;
    if (select instanceof SetOperationList union) {
      // DISTINCT de-duplicates across branches, INTERSECT and EXCEPT (ALL too) pair rows across them;
      // a branch without FROM would run on every shard the others need
      boolean combine = union.getOperations().stream().anyMatch(op -> !(op instanceof UnionOp) || !op.isAll())
          || union.getSelects().stream().anyMatch(SelectShapes::fromless);
      return new SelectShape(order, limit, false, false, false, combine, locking);
    }
    if (!(select instanceof PlainSelect plain)) {
      return new SelectShape(order, limit, false, false, false, false, locking);
    }
    // HAVING with an aggregate makes the whole table one group even without GROUP BY or aggregate columns
    boolean aggregates = plain.getSelectItems().stream().anyMatch(i -> Aggregates.isAggregate(i.getExpression()))
        || Aggregates.isAggregate(plain.getHaving());
    return new SelectShape(order, limit, aggregates, plain.getGroupBy() != null, plain.getDistinct() != null, false,
        locking);
  }

  static boolean fromless(Select select) {
    Select s = select instanceof ParenthesedSelect p ? p.getSelect() : select;
    return s instanceof Values || s instanceof PlainSelect plain && plain.getFromItem() == null;
  }

  /**
   * The GROUP BY columns of a derived SELECT that groups without LIMIT, DISTINCT, ROLLUP or window
   * functions (any of which would still need a merge); empty when it is no candidate.
   */
  static List<ColumnRef> keyGroupCandidates(Select select, int scope) {
    if (!(select instanceof PlainSelect plain) || plain.getGroupBy() == null || plain.getGroupBy().isMysqlWithRollup()
        || plain.getDistinct() != null || plain.getLimit() != null || plain.getOffset() != null || plain.getFetch() != null
        || plain.getWithItemsList() != null) {
      return List.of();
    }
    for (SelectItem<?> item : plain.getSelectItems()) {
      if (Aggregates.hasWindow(item.getExpression())) {
        return List.of();
      }
    }
    List<ColumnRef> out = new ArrayList<>();
    for (Expression g : plain.getGroupBy().getGroupByExpressionList()) {
      if (g instanceof Column c) {
        out.add(SqlNames.ref(c, scope));
      }
    }
    return out;
  }

  /**
   * The windows of a derived SELECT whose only per-shard computation is its window functions (no
   * GROUP BY, aggregate, DISTINCT, HAVING, LIMIT or WITH), each by its PARTITION BY columns; empty
   * when it is no candidate.
   */
  static List<SelectShape.KeyGrouped> windowCandidates(Select select, int scope) {
    if (!(select instanceof PlainSelect plain) || plain.getGroupBy() != null || plain.getDistinct() != null
        || plain.getHaving() != null || plain.getLimit() != null || plain.getOffset() != null || plain.getFetch() != null
        || plain.getWithItemsList() != null || plain.getForMode() != null
        || plain.getSelectItems().stream().anyMatch(i -> Windows.groupAggregate(i.getExpression()))) {
      return List.of();
    }
    return Windows.of(plain, scope);
  }

  /** Whether a nested SELECT computes something per shard that a concatenation would get wrong. */
  static boolean mergeSensitive(Select select) {
    SelectShape shape = shape(select);
    boolean having = select instanceof PlainSelect plain && plain.getHaving() != null;
    return shape.aggregates() || shape.groupBy() || shape.distinct() || shape.limit() || shape.union() || having;
  }
}
