package dev.shardex.driver.sql;

import dev.shardex.driver.sql.MergeSpec.Fold;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;

/**
 * GROUP BY and HAVING of a merged SELECT: the merged columns the merge groups by (a position, a
 * caller's column, or a hidden one), and for HAVING, which applies to merged groups, the merged
 * column each of its aggregates and columns reads.
 */
final class GroupHaving {
  private GroupHaving() {}

  /** The merge's group keys (1-based columns; hidden ones negative under SELECT *). */
  static List<Integer> groupKeys(MergeColumns m) {
    List<Integer> keys = new ArrayList<>();
    if (m.select.getGroupBy() == null) {
      return keys;
    }
    for (Expression g : m.select.getGroupBy().getGroupByExpressionList()) {
      if (g instanceof LongValue position) {
        keys.add(MergeColumns.position(position)); // GROUP BY 2: the caller's second column
      } else if (!m.addedGroupBy.contains(g)) {
        keys.add(m.columnFor(g, Fold.FIRST));
      }
    }
    return keys;
  }

  /** HAVING's (null: none) expression nodes, by identity (equal texts are distinct references), to the merged column each reads. */
  @SuppressWarnings("IdentityHashMapUsage")
  static Map<Expression, Integer> havingRefs(MergeColumns m, Expression having) throws SQLException {
    Map<Expression, Integer> refs = new IdentityHashMap<>();
    if (having == null) {
      return refs;
    }
    SQLException[] error = {null};
    having.accept(new ExpressionVisitorAdapter<Void>() {
      @Override
      public <S> Void visit(Function f, S context) {
        if (Aggregates.foldable(f)) {
          try {
            refs.put(f, m.aggregateColumn(f));
          } catch (SQLException e) {
            error[0] = e;
          }
          return null;
        }
        return super.visit(f, context);
      }

      @Override
      public <S> Void visit(Column c, S context) {
        refs.put(c, m.columnFor(c, Fold.FIRST));
        return null;
      }

      @Override
      public <S> Void visit(DateUnitExpression d, S context) {
        refs.put(d, m.columnFor(d, Fold.FIRST)); // an alias such as `year`
        return null;
      }
    }, null);
    if (error[0] != null) {
      throw error[0];
    }
    return refs;
  }
}
