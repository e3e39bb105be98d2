package dev.shardex.driver.sql;

import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.AnyType;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * The forms of a membership test against a subquery that mean the same: {@code x = ANY (S)} and
 * {@code x = SOME (S)} are {@code x IN (S)}, {@code x <> ALL (S)} is {@code x NOT IN (S)} (the
 * standard defines IN so, NULLs included); and a correlated {@code x IN (SELECT t.y FROM t WHERE
 * ...)} that is an AND-ed term of the WHERE is {@code EXISTS (SELECT ... WHERE ... AND t.y = x)}:
 * there IN's NULL (no match, a NULL seen) and FALSE both drop the row, so only TRUE matters, and IN
 * is TRUE exactly when such a row exists. Anywhere else (under NOT, OR, in the select list) the
 * NULL would show, and a correlated IN stays refused.
 */
final class SubqueryForms {
  private SubqueryForms() {}

  /** {@code left [NOT] IN (select)}, however it was written. */
  record Membership(Expression left, Select select, boolean not) {}

  /** The membership test an expression is, or null. */
  static Membership membership(Expression e) {
    if (e instanceof InExpression in && in.getRightExpression() instanceof ParenthesedSelect sub) {
      return new Membership(in.getLeftExpression(), sub.getSelect(), in.isNot());
    }
    if (e instanceof EqualsTo eq && eq.getRightExpression() instanceof AnyComparisonExpression any
        && any.getAnyType() != AnyType.ALL) {
      return new Membership(eq.getLeftExpression(), unwrap(any.getSelect()), false);
    }
    if (e instanceof NotEqualsTo ne && ne.getRightExpression() instanceof AnyComparisonExpression all
        && all.getAnyType() == AnyType.ALL) {
      return new Membership(ne.getLeftExpression(), unwrap(all.getSelect()), true);
    }
    return null;
  }

  /** Whether a correlated IN could be read as an EXISTS: one plain column selected, no LIMIT (MySQL refuses LIMIT in IN). */
  static boolean existsCandidate(Membership m) {
    return !m.not() && !(m.left() instanceof ParenthesedExpressionList<?>) && m.select() instanceof PlainSelect p
        && p.getWithItemsList() == null && p.getSelectItems().size() == 1
        && p.getSelectItems().get(0).getExpression() instanceof Column && p.getLimit() == null && p.getOffset() == null
        && p.getFetch() == null;
  }

  /** {@code EXISTS (SELECT ... WHERE (w) AND t.y = left)} for {@code left IN (SELECT t.y ... WHERE w)}. */
  static ExistsExpression asExists(Membership m) {
    PlainSelect p = (PlainSelect) m.select();
    Column item = (Column) p.getSelectItems().get(0).getExpression();
    EqualsTo match = new EqualsTo(new Column(item.getTable(), item.getColumnName()), m.left());
    Expression where = p.getWhere();
    if (where instanceof OrExpression || where instanceof XorExpression) {
      where = new ParenthesedExpressionList<>(where); // printed next to AND, it keeps its own precedence
    }
    p.setWhere(where == null ? match : new AndExpression(where, match));
    ExistsExpression exists = new ExistsExpression();
    exists.setRightExpression(new ParenthesedSelect().withSelect(p));
    return exists;
  }

  private static Select unwrap(Select s) {
    return s instanceof ParenthesedSelect p ? p.getSelect() : s;
  }
}
