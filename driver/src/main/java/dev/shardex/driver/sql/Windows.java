package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * The window functions of one SELECT (its select list and ORDER BY, a named window resolved from
 * its WINDOW clause), each as the columns of its PARTITION BY. A window computes over its
 * partition's rows; when one of those columns is the shard key of a SHARDED table the rows come
 * from (decided at route time), each partition lives on one shard and every shard computes its
 * windows exactly. A window without PARTITION BY, over a name the WINDOW clause does not define,
 * or partitioned only by expressions, has no columns: never exact on several shards.
 */
final class Windows {
  private Windows() {}

  /** One entry per window function of {@code plain} (scope {@code scope}), with its PARTITION BY columns. */
  static List<SelectShape.KeyGrouped> of(PlainSelect plain, int scope) {
    Set<String> aliases = aliases(plain);
    List<SelectShape.KeyGrouped> out = new ArrayList<>();
    for (AnalyticExpression a : found(plain)) {
      out.add(new SelectShape.KeyGrouped(scope, partitionColumns(partition(plain, a), aliases, scope)));
    }
    return out;
  }

  /** Whether the select list or ORDER BY of {@code plain} holds a window function (outside subqueries). */
  static boolean any(PlainSelect plain) {
    return !found(plain).isEmpty();
  }

  /** The window functions of the select list and ORDER BY. */
  private static List<AnalyticExpression> found(PlainSelect plain) {
    List<AnalyticExpression> found = new ArrayList<>();
    for (SelectItem<?> item : plain.getSelectItems()) {
      collect(item.getExpression(), found);
    }
    if (plain.getOrderByElements() != null) {
      for (OrderByElement o : plain.getOrderByElements()) {
        collect(o.getExpression(), found);
      }
    }
    return found;
  }

  /** Whether an expression holds an aggregate of rows grouped (not a window: {@code SUM(x) OVER ()} is none, {@code SUM(SUM(x)) OVER ()} is). */
  static boolean groupAggregate(Expression e) {
    boolean[] seen = {false};
    if (e != null) {
      e.accept(new ExpressionVisitorAdapter<Void>() {
        @Override
        public <S> Void visit(Function f, S context) {
          seen[0] |= Aggregates.AGGREGATES.contains(f.getName().toUpperCase(Locale.ROOT));
          return super.visit(f, context);
        }

        @Override
        public <S> Void visit(AnalyticExpression a, S context) {
          seen[0] |= groupAggregate(a.getExpression()) || groupAggregate(a.getOffset()) || groupAggregate(a.getDefaultValue());
          return null;
        }

        @Override
        public <S> Void visit(ParenthesedSelect sub, S context) {
          return null;
        }
      }, null);
    }
    return seen[0];
  }

  private static void collect(Expression e, List<AnalyticExpression> found) {
    if (e == null) {
      return;
    }
    e.accept(new ExpressionVisitorAdapter<Void>() {
      @Override
      public <S> Void visit(AnalyticExpression a, S context) {
        found.add(a);
        return null;
      }

      @Override
      public <S> Void visit(ParenthesedSelect sub, S context) {
        return null; // a subquery's windows are its own
      }
    }, null);
  }

  /** The window's PARTITION BY, its own or its named window's; null when it has none or the name is not defined here. */
  private static List<?> partition(PlainSelect plain, AnalyticExpression a) {
    if (a.getWindowName() == null) {
      return a.getPartitionExpressionList();
    }
    if (plain.getWindowDefinitions() != null) {
      for (WindowDefinition w : plain.getWindowDefinitions()) {
        if (a.getWindowName().equalsIgnoreCase(w.getWindowName())) {
          return w.getPartitionExpressionList();
        }
      }
    }
    return null;
  }

  /**
   * The bare columns of a PARTITION BY; an unqualified one that a select item's alias also names is
   * left out (which of the two the server partitions by is not Shardex's to guess).
   */
  private static List<ColumnRef> partitionColumns(List<?> partition, Set<String> aliases, int scope) {
    List<ColumnRef> out = new ArrayList<>();
    if (partition == null) {
      return out;
    }
    for (Object e : partition) {
      if (e instanceof Column c) {
        ColumnRef ref = SqlNames.ref(c, scope);
        if (ref.qualifier() != null || !aliases.contains(ref.column().toLowerCase(Locale.ROOT))) {
          out.add(ref);
        }
      }
    }
    return out;
  }

  /** The select items' aliases that name something other than the column of that name. */
  private static Set<String> aliases(PlainSelect plain) {
    Set<String> out = new HashSet<>();
    for (SelectItem<?> item : plain.getSelectItems()) {
      if (item.getAlias() != null) {
        String alias = SqlNames.unquote(item.getAlias().getName()).toLowerCase(Locale.ROOT);
        if (!(item.getExpression() instanceof Column c && SqlNames.columnName(c).equalsIgnoreCase(alias))) {
          out.add(alias);
        }
      }
    }
    return out;
  }
}
