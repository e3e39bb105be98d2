package dev.shardex.driver.sql;

import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.AnyType;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
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
 * NULL would show, and a correlated IN stays refused. Any other comparison with ANY/ALL ({@code x >
 * ALL (S)}) over an integer or DECIMAL column is pulled out as its distinct values, NULL kept,
 * written back as {@code x > ALL (SELECT ? UNION ALL SELECT ? ...)}, so the server applies its own
 * rules to the same values (none: ALL is TRUE, ANY FALSE).
 */
final class SubqueryForms {
  private SubqueryForms() {}

  /** {@code left op ANY|SOME|ALL (select)} other than a membership test ({@code x > ALL (...)}). */
  record Quantified(Expression left, String op, AnyType type, Select select) {
    /** Its text up to the subquery, e.g. {@code u.id > ALL}. */
    String prefix() {
      return left + " " + op + " " + type;
    }
  }

  /** The comparison with ANY/ALL an expression is, when it is no membership test; else null. */
  static Quantified quantified(Expression e) {
    if (e instanceof ComparisonOperator c && c.getRightExpression() instanceof AnyComparisonExpression any
        && membership(e) == null) {
      return new Quantified(c.getLeftExpression(), c.getStringExpression(), any.getAnyType(), unwrap(any.getSelect()));
    }
    return null;
  }

  /**
   * Whether the one column a subquery selects is an integer or DECIMAL column: its values, bound
   * as parameters, then compare as the column's own would (a float's, a string's or a temporal's
   * might not: their text, type or collation can differ from the column's).
   */
  static boolean exactNumber(Select s, JoinSplitter.Catalog catalog) {
    if (!(s instanceof PlainSelect p) || !(p.getSelectItems().get(0).getExpression() instanceof Column c)) {
      return false;
    }
    SubqueryScope scope = SubqueryScope.of(p, catalog);
    try {
      String type = scope == null ? null : catalog.type(scope.table(c), JoinSplitter.unquote(c.getColumnName()));
      return type != null && type.toLowerCase(java.util.Locale.ROOT).matches("(bigint|int|integer|mediumint|smallint|decimal|numeric)\\b.*");
    } catch (java.sql.SQLException e) {
      return false;
    }
  }

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
