package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Decorrelates {@code [NOT] EXISTS (SELECT ... FROM t WHERE t.y = outer.x [AND t.z = outer.w ...]
 * AND p)} over a SHARDED table into a semi- or anti-join on pulled-out values: {@code SELECT
 * DISTINCT t.y, t.z FROM t WHERE p AND t.y IS NOT NULL AND t.z IS NOT NULL} (no DISTINCT when a
 * column is a string) runs first, and the EXISTS becomes {@code (outer.x IS NOT NULL AND outer.w IS
 * NOT NULL AND (outer.x, outer.w) IN (values))}, NOT EXISTS {@code (outer.x IS NULL OR outer.w IS
 * NULL OR (outer.x, outer.w) NOT IN (values))}: '=' never matches a NULL, so a NULL outer column
 * makes EXISTS false and NOT EXISTS true, as on one server (unlike NOT IN); the values hold no NULL,
 * so the row comparison is TRUE or FALSE. An EXISTS that reads no outer column runs once with LIMIT
 * 1 and becomes TRUE or FALSE. Any other correlation (not an equality of an own and an outer
 * column, inside a nested subquery or an ON) is refused by name.
 */
final class CorrelatedExists {
  private CorrelatedExists() {}

  /**
   * The EXISTS ({@code not}: NOT EXISTS) as a subquery to pull out (its marker given), null when it
   * reads no SHARDED table, or the reason it is refused.
   */
  static SubqueryPullOut.Sub of(ExistsExpression e, boolean not, String marker, JoinSplitter.Catalog catalog)
      throws JoinSplitter.Refused {
    if (!(e.getRightExpression() instanceof ParenthesedSelect sub) || !(sub.getSelect() instanceof PlainSelect p)
        || p.getWithItemsList() != null) {
      return null;
    }
    SubqueryScope scope = SubqueryScope.of(p, catalog);
    if (scope == null || !scope.sharded()) {
      return null;
    }
    refuseLimit(p);
    if (p.getJoins() != null) {
      for (Join j : p.getJoins()) {
        for (Expression on : j.getOnExpressions()) {
          if (!scope.outer(on).isEmpty()) {
            throw refused("reads an outer column (or a nested subquery) in an ON clause");
          }
        }
      }
    }
    List<Expression> kept = new ArrayList<>();
    List<EqualsTo> correlations = new ArrayList<>();
    for (Expression term : ExpressionParts.conjuncts(p.getWhere())) {
      List<Column> outer = scope.outer(term);
      if (outer.isEmpty()) {
        kept.add(term);
      } else if (outer.contains(SubqueryScope.NESTED)) {
        throw refused("has a nested subquery in its WHERE clause");
      } else if (!(term instanceof EqualsTo eq) || outer.size() != 1 || inner(eq, scope) == null) {
        throw refused("is correlated by '" + term + "'");
      } else {
        correlations.add(eq);
      }
    }
    if (correlations.isEmpty()) {
      return uncorrelated(p, scope, not, marker);
    }
    refuseGrouping(p);
    p.setOrderByElements(null);
    boolean distinct = correlations.stream().allMatch(eq -> distinct(inner(eq, scope), scope, catalog));
    return decorrelated(p, kept, correlations, scope, distinct, not, marker);
  }

  /**
   * Whether the values may be de-duplicated by the shards: not for a string column, whose DISTINCT
   * follows its collation ('SAVE10' = 'save10' under _ci) while the outer column may compare
   * otherwise; the client keeps each distinct Java value instead.
   */
  private static boolean distinct(Column inner, SubqueryScope scope, JoinSplitter.Catalog catalog) {
    try {
      String type = catalog.type(scope.table(inner), JoinSplitter.unquote(inner.getColumnName()));
      return type != null && !type.toLowerCase(java.util.Locale.ROOT).matches(
          "(char|varchar|tinytext|text|mediumtext|longtext|enum|set|json|binary|varbinary|.*blob).*");
    } catch (java.sql.SQLException e) {
      return false;
    }
  }

  /** What a decorrelated EXISTS may not have: grouping and aggregates change its answer per outer row. */
  private static void refuseGrouping(PlainSelect p) throws JoinSplitter.Refused {
    if (aggregates(p) || p.getGroupBy() != null || p.getHaving() != null) {
      throw refused("aggregates or groups (GROUP BY, HAVING)");
    }
  }

  private static boolean aggregates(PlainSelect p) {
    return p.getSelectItems().stream().anyMatch(i -> Aggregates.isAggregate(i.getExpression()));
  }

  /** LIMIT 0 makes an EXISTS false, an OFFSET may too: only LIMIT n (n >= 1) is dropped. */
  private static void refuseLimit(PlainSelect p) throws JoinSplitter.Refused {
    Limit limit = p.getLimit();
    if (p.getOffset() != null || (limit != null && (limit.getOffset() != null
        || !(limit.getRowCount() instanceof LongValue n) || n.getValue() < 1))) {
      throw refused("has a LIMIT other than LIMIT n (n >= 1) or an OFFSET");
    }
  }

  /** The subquery's own column of a correlating equality, or null when neither side is a plain column of its own. */
  private static Column inner(EqualsTo eq, SubqueryScope scope) {
    if (eq.getLeftExpression() instanceof Column l && eq.getRightExpression() instanceof Column r) {
      return scope.own(l) && !scope.own(r) ? l : scope.own(r) && !scope.own(l) ? r : null;
    }
    return null;
  }

  private static SubqueryPullOut.Sub decorrelated(PlainSelect p, List<Expression> kept, List<EqualsTo> correlations,
      SubqueryScope scope, boolean distinct, boolean not, String marker) {
    List<SelectItem<?>> items = new ArrayList<>();
    List<String> outers = new ArrayList<>();
    for (EqualsTo correlation : correlations) {
      Column inner = inner(correlation, scope);
      Column outer = inner == correlation.getLeftExpression() ? (Column) correlation.getRightExpression()
          : (Column) correlation.getLeftExpression();
      kept.add(new IsNullExpression(new Column(inner.getTable(), inner.getColumnName())).withNot(true));
      items.add(SelectItem.from(new Column(inner.getTable(), inner.getColumnName())));
      outers.add(outer.toString());
    }
    Expression where = kept.get(0);
    for (int i = 1; i < kept.size(); i++) {
      where = new AndExpression(where, kept.get(i));
    }
    p.setWhere(where);
    p.setSelectItems(items);
    p.setDistinct(distinct ? new Distinct() : null);
    p.setLimit(null);
    NumberedParameters.Text text = NumberedParameters.print(p);
    String left = outers.size() == 1 ? outers.get(0) : "(" + String.join(", ", outers) + ")";
    return new SubqueryPullOut.Sub(SubqueryPullOut.Kind.EXISTS, text.sql(), text.order(), left, not, marker, -1, outers);
  }

  /**
   * An EXISTS that reads no outer column in its WHERE: one row of it, with its own grouping and
   * aggregates (an aggregate without GROUP BY always gives a row), its select list kept then.
   */
  private static SubqueryPullOut.Sub uncorrelated(PlainSelect p, SubqueryScope scope, boolean not, String marker)
      throws JoinSplitter.Refused {
    if (!scope.outer(p.getHaving()).isEmpty()) {
      throw refused("reads an outer column (or a nested subquery) in its HAVING clause");
    }
    if (!aggregates(p)) {
      p.setSelectItems(List.of(SelectItem.from(new LongValue(1))));
    }
    p.setOrderByElements(null);
    p.setLimit(new Limit().withRowCount(new LongValue(1)));
    NumberedParameters.Text text = NumberedParameters.print(p);
    return new SubqueryPullOut.Sub(SubqueryPullOut.Kind.ANY_ROW, text.sql(), text.order(), null, not, marker, -1, List.of());
  }

  private static JoinSplitter.Refused refused(String why) {
    return new JoinSplitter.Refused("an EXISTS subquery over a SHARDED table runs first only when equalities"
        + " inner_column = outer_column correlate it, its other terms its own; this one " + why);
  }
}
