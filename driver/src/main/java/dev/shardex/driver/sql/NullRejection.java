package dev.shardex.driver.sql;

import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.schema.Column;

/**
 * Whether a predicate is false or unknown when its columns are NULL, judged on its form alone: a
 * comparison ({@code =, <>, <, <=, >, >=}), LIKE, BETWEEN or IN (list) with a bare column as an
 * operand, or {@code col IS NOT NULL}. {@code <=>} and anything wrapped in a function are not
 * judged (COALESCE(col, 0) = 0 holds for a NULL col).
 */
final class NullRejection {
  private NullRejection() {}

  static boolean rejects(Expression e) {
    if (e instanceof IsNullExpression n) {
      return n.isNot() && n.getLeftExpression() instanceof Column;
    }
    if (e instanceof ComparisonOperator c) {
      return !"<=>".equals(c.getStringExpression().trim())
          && (c.getLeftExpression() instanceof Column || c.getRightExpression() instanceof Column);
    }
    if (e instanceof LikeExpression l) {
      return l.getLeftExpression() instanceof Column;
    }
    if (e instanceof Between b) {
      return !b.isNot() && b.getLeftExpression() instanceof Column;
    }
    if (e instanceof InExpression in) {
      return in.getLeftExpression() instanceof Column && in.getRightExpression() instanceof ExpressionList<?>;
    }
    return false;
  }
}
