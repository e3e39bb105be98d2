package dev.shardex.driver.sql;

import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;

/**
 * An expression visitor that meets every subquery: JSqlParser's adapter does not enter the
 * subquery of {@code x = ANY (SELECT ...)} / {@code x > ALL (SELECT ...)}, so a visitor looking
 * for subqueries (their tables, their outer columns) would not see it; here it arrives at
 * {@code visit(ParenthesedSelect)} like any other.
 */
class SubqueryVisitor<T> extends ExpressionVisitorAdapter<T> {
  @Override
  public <S> T visit(AnyComparisonExpression any, S context) {
    return any.getSelect() instanceof ParenthesedSelect p ? visit(p, context) : visit(any.getSelect(), context);
  }
}
