package dev.shardex.driver.sql;

import dev.shardex.driver.sql.MergeSpec.Fold;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;

/**
 * Which expressions aggregate, which hold a window function, and which aggregates fold from
 * per-shard parts. A subquery's aggregates are its own: the search does not enter it.
 */
final class Aggregates {
  static final Set<String> AGGREGATES = Set.of(
      "COUNT", "SUM", "MIN", "MAX", "AVG", "GROUP_CONCAT", "STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP",
      "VARIANCE", "VAR_POP", "VAR_SAMP", "BIT_AND", "BIT_OR", "BIT_XOR", "JSON_ARRAYAGG", "JSON_OBJECTAGG");
  /** The aggregates the merge folds from per-shard parts (AVG as SUM and COUNT). */
  private static final Set<String> FOLDABLE = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");

  private Aggregates() {}

  /** Whether an expression holds an aggregate or a window function outside its subqueries. */
  static boolean isAggregate(Expression e) {
    boolean[] found = {false};
    if (e == null) {
      return false;
    }
    e.accept(new ExpressionVisitorAdapter<Void>() {
      @Override
      public <S> Void visit(Function f, S context) {
        if (AGGREGATES.contains(f.getName().toUpperCase(Locale.ROOT))) {
          found[0] = true;
        }
        return super.visit(f, context);
      }

      @Override
      public <S> Void visit(AnalyticExpression a, S context) {
        found[0] = true;
        return null;
      }

      @Override
      public <S> Void visit(ParenthesedSelect sub, S context) {
        return null;
      }
    }, null);
    return found[0];
  }

  static boolean hasWindow(Expression e) {
    boolean[] found = {false};
    if (e != null) {
      e.accept(new ExpressionVisitorAdapter<Void>() {
        @Override
        public <S> Void visit(AnalyticExpression a, S context) {
          found[0] = true;
          return null;
        }
      }, null);
    }
    return found[0];
  }

  /** Whether the merge folds this function from per-shard parts. */
  static boolean foldable(Function f) {
    return FOLDABLE.contains(f.getName().toUpperCase(Locale.ROOT));
  }

  /** How a merged column of this expression folds: by its aggregate, or FIRST for a plain value (and AVG's parts). */
  static Fold foldOf(Expression e) {
    if (e instanceof Function f) {
      String name = f.getName().toUpperCase(Locale.ROOT);
      if (FOLDABLE.contains(name) && !name.equals("AVG")) {
        return Fold.valueOf(name);
      }
    }
    return Fold.FIRST;
  }

  static Function call(String name, Expression arg) {
    Function f = new Function();
    f.setName(name);
    f.setParameters(new ExpressionList<>(arg));
    return f;
  }
}
