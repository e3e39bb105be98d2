package dev.shardex.driver.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * Reads what can route a statement out of its WHERE, ON and SET: the {@code col = v} /
 * {@code col IN (...)} / {@code a.x = b.y} conjuncts (OR-ed branches are not conjuncts, so they
 * never narrow a route), {@code col IN (SELECT ...)} semi-joins, and each value as a parameter, a
 * literal or an opaque expression.
 */
final class ConjunctReader {
  private final TemplateFacts facts;
  private final SelectWalker walker;

  ConjunctReader(TemplateFacts facts, SelectWalker walker) {
    this.facts = facts;
    this.walker = walker;
  }

  /** Records the conjuncts of a WHERE/ON and scans the whole expression for subqueries and params. */
  void where(Expression e, int scope) {
    if (e == null) {
      return;
    }
    conjuncts(e, scope);
    walker.scan(e, scope);
  }

  private void conjuncts(Expression e, int scope) {
    if (e instanceof AndExpression and) {
      conjuncts(and.getLeftExpression(), scope);
      conjuncts(and.getRightExpression(), scope);
    } else if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
      conjuncts(p.get(0), scope);
    } else if (e instanceof EqualsTo eq && eq.getLeftExpression() instanceof ParenthesedExpressionList<?> l
        && eq.getRightExpression() instanceof ParenthesedExpressionList<?> r && l.size() == r.size() && l.size() > 1) {
      // (a, b) = (?, ?): the same as a = ? AND b = ?
      for (int i = 0; i < l.size(); i++) {
        conjuncts(new EqualsTo(l.get(i), r.get(i)), scope);
      }
    } else if (e instanceof InExpression in && !in.isNot() && in.getLeftExpression() instanceof ParenthesedExpressionList<?> l
        && l.size() > 1 && in.getRightExpression() instanceof ExpressionList<?> rows) {
      rowValueIn(l, rows, scope);
    } else if (e instanceof EqualsTo eq) {
      equality(eq.getLeftExpression(), eq.getRightExpression(), scope);
    } else if (e instanceof InExpression in && !in.isNot() && in.getLeftExpression() instanceof Column c
        && in.getRightExpression() instanceof ExpressionList<?> list) {
      keyPredicate(c, list, scope);
    } else if (e instanceof InExpression in && !in.isNot() && in.getLeftExpression() instanceof Column c
        && in.getRightExpression() instanceof ParenthesedSelect sub && sub.getSelect() instanceof PlainSelect inner
        && inner.getSelectItems().size() == 1 && inner.getSelectItems().get(0).getExpression() instanceof Column ic) {
      // col IN (SELECT col2 FROM ...): a semi-join, co-located when both columns are keys of one key space.
      int subScope = facts.newScope(scope);
      facts.walked.add(sub);
      walker.walkSelect(sub.getSelect(), subScope);
      facts.links.add(new ColumnLink(SqlNames.ref(c, scope), SqlNames.ref(ic, subScope)));
    }
  }

  private void equality(Expression l, Expression r, int scope) {
    if (l instanceof Column lc && r instanceof Column rc) {
      facts.links.add(new ColumnLink(SqlNames.ref(lc, scope), SqlNames.ref(rc, scope)));
    } else if (l instanceof Column lc) {
      keyPredicate(lc, List.of(r), scope);
    } else if (r instanceof Column rc) {
      keyPredicate(rc, List.of(l), scope);
    }
  }

  /**
   * {@code (a, b) IN ((?, ?), (?, ?))}, as Hibernate sends composite ids: each column of the row
   * takes the values at its position, so a key among them routes as {@code key IN (...)}.
   */
  private void rowValueIn(ExpressionList<?> columns, ExpressionList<?> rows, int scope) {
    List<ExpressionList<?>> tuples = new ArrayList<>();
    for (Expression row : rows) {
      if (!(row instanceof ParenthesedExpressionList<?> tuple) || tuple.size() != columns.size()) {
        return;
      }
      tuples.add(tuple);
    }
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i) instanceof Column c) {
        List<Expression> values = new ArrayList<>(tuples.size());
        for (ExpressionList<?> tuple : tuples) {
          values.add(tuple.get(i));
        }
        keyPredicate(c, values, scope);
      }
    }
  }

  private void keyPredicate(Column column, List<? extends Expression> values, int scope) {
    List<ValueSource> sources = new ArrayList<>(values.size());
    for (Expression v : values) {
      ValueSource s = value(v);
      if (s instanceof ValueSource.Opaque) {
        return; // not a usable key predicate (an expression, a column, a subquery)
      }
      sources.add(s);
    }
    facts.keys.add(new KeyPredicate(SqlNames.ref(column, scope), sources));
  }

  /** A value as routing can use it: a parameter, a literal, or opaque (its subqueries walked). */
  ValueSource value(Expression e) {
    if (e instanceof JdbcParameter p) {
      facts.param(p.getIndex());
      return new ValueSource.Param(p.getIndex() - 1);
    } else if (e instanceof LongValue l) {
      return new ValueSource.Literal(l.getBigIntegerValue().bitLength() < 64 ? (Object) l.getValue() : l.getBigIntegerValue());
    } else if (e instanceof StringValue s) {
      return new ValueSource.Literal(s.getValue().replace("''", "'"));
    } else if (e instanceof DoubleValue d) {
      return new ValueSource.Literal(new BigDecimal(d.toString()));
    } else if (e instanceof NullValue) {
      return new ValueSource.Literal(null);
    } else if (e instanceof SignedExpression s && s.getSign() == '-' && s.getExpression() instanceof LongValue l) {
      return new ValueSource.Literal(-l.getValue());
    }
    walker.scan(e, -1);
    return new ValueSource.Opaque(e == null ? "" : e.toString());
  }

  /** The SET list of an UPDATE or an ON DUPLICATE KEY UPDATE: each column's value. */
  Map<String, ValueSource> assignments(List<UpdateSet> sets, int scope) {
    if (sets == null) {
      return Map.of();
    }
    Map<String, ValueSource> out = new LinkedHashMap<>();
    for (UpdateSet set : sets) {
      for (int i = 0; i < set.getColumns().size(); i++) {
        Expression v = i < set.getValues().size() ? set.getValues().get(i) : null;
        out.put(SqlNames.columnName(set.getColumns().get(i)), v == null ? new ValueSource.Opaque("") : value(v));
        walker.scan(v, scope);
      }
    }
    return out;
  }
}
