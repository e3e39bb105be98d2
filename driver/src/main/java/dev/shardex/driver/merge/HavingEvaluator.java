package dev.shardex.driver.merge;

import dev.shardex.vocabulary.ShardexError;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.SQLException;
import java.util.Map;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;

/**
 * Evaluates a HAVING clause on a merged group, with SQL's three-valued logic: comparisons and
 * arithmetic on NULL give NULL, and only TRUE keeps the group. Aggregates and columns were mapped
 * to merged columns by the rewrite; anything else is refused by name rather than guessed.
 */
public final class HavingEvaluator {
  private final Map<Expression, Integer> refs;
  private final Object[] values;

  private final String shards;

  public HavingEvaluator(Map<Expression, Integer> refs, Object[] values, String shards) {
    this.refs = refs;
    this.values = values;
    this.shards = shards;
  }

  public boolean keeps(Expression having, Cell[] row) throws SQLException {
    try {
      return Boolean.TRUE.equals(truth(eval(having, row)));
    } catch (ClassCastException e) {
      // an operator applied to a value of another kind (NOT 'text', 'text' + 1): MySQL would coerce
      throw dev.shardex.vocabulary.ShardexError.UNSUPPORTED.exception("HAVING '" + having + "' across shards",
          "it applies an operator to a value of another type (" + e.getMessage() + "); cast the value or filter in the application");
    }
  }

  private Object eval(Expression e, Cell[] row) throws SQLException {
    Integer column = refs.get(e);
    if (column != null) {
      return row[column - 1].value();
    }
    if (e instanceof LongValue l) {
      return l.getValue();
    } else if (e instanceof DoubleValue d) {
      return new BigDecimal(d.toString());
    } else if (e instanceof StringValue s) {
      return s.getValue();
    } else if (e instanceof NullValue) {
      return null;
    } else if (e instanceof JdbcParameter p) {
      if (p.getIndex() < 1 || p.getIndex() > values.length) {
        throw dev.shardex.vocabulary.ShardexError.UNSUPPORTED.exception("a ? in HAVING without a bound value",
            "bind it on a PreparedStatement (a plain Statement cannot carry ?)");
      }
      return values[p.getIndex() - 1];
    } else if (e instanceof SignedExpression s && s.getSign() == '-') {
      Object v = eval(s.getExpression(), row);
      return v == null ? null : ValueOrder.decimal((Number) v).negate();
    } else if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
      return eval(p.get(0), row);
    } else if (e instanceof AndExpression and) {
      Object l = truth(eval(and.getLeftExpression(), row));
      Object r = truth(eval(and.getRightExpression(), row));
      return Boolean.FALSE.equals(l) || Boolean.FALSE.equals(r) ? Boolean.FALSE : l == null || r == null ? null : Boolean.TRUE;
    } else if (e instanceof OrExpression or) {
      Object l = truth(eval(or.getLeftExpression(), row));
      Object r = truth(eval(or.getRightExpression(), row));
      return Boolean.TRUE.equals(l) || Boolean.TRUE.equals(r) ? Boolean.TRUE : l == null || r == null ? null : Boolean.FALSE;
    } else if (e instanceof NotExpression not) {
      Boolean v = truth(eval(not.getExpression(), row));
      return v == null ? null : !v;
    } else if (e instanceof IsNullExpression isNull) {
      boolean isNullValue = eval(isNull.getLeftExpression(), row) == null;
      return isNull.isNot() != isNullValue;
    } else if (e instanceof Between b) {
      Object v = eval(b.getLeftExpression(), row);
      Object lo = eval(b.getBetweenExpressionStart(), row);
      Object hi = eval(b.getBetweenExpressionEnd(), row);
      if (v == null || lo == null || hi == null) {
        return null;
      }
      boolean in = ValueOrder.compare(v, lo, true) >= 0 && ValueOrder.compare(v, hi, true) <= 0;
      return b.isNot() != in;
    } else if (e instanceof BinaryExpression bin) {
      return binary(bin, eval(bin.getLeftExpression(), row), eval(bin.getRightExpression(), row));
    }
    throw unsupported(e);
  }

  private Object binary(BinaryExpression e, Object l, Object r) throws SQLException {
    if (l == null || r == null) {
      return null;
    }
    if (e instanceof Addition || e instanceof Subtraction || e instanceof Multiplication || e instanceof Division) {
      BigDecimal a = ValueOrder.decimal(asNumber(l));
      BigDecimal b = ValueOrder.decimal(asNumber(r));
      return e instanceof Addition ? a.add(b) : e instanceof Subtraction ? a.subtract(b)
          : e instanceof Multiplication ? a.multiply(b) : b.signum() == 0 ? null : a.divide(b, MathContext.DECIMAL64);
    }
    int c = ValueOrder.compare(l, r, true);
    if (e instanceof EqualsTo) {
      return c == 0;
    } else if (e instanceof NotEqualsTo) {
      return c != 0;
    } else if (e instanceof GreaterThan) {
      return c > 0;
    } else if (e instanceof GreaterThanEquals) {
      return c >= 0;
    } else if (e instanceof MinorThan) {
      return c < 0;
    } else if (e instanceof MinorThanEquals) {
      return c <= 0;
    }
    throw unsupported(e);
  }

  /**
   * A value as a condition, as MySQL reads one: NULL is unknown, a number is true unless zero
   * ({@code HAVING SUM(x)}), a string is the number it starts with.
   */
  private static final java.util.regex.Pattern LEADING_NUMBER =
      java.util.regex.Pattern.compile("^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

  static Boolean truth(Object v) {
    if (v == null || v instanceof Boolean) {
      return (Boolean) v;
    }
    if (v instanceof Number n) {
      return ValueOrder.decimal(n).signum() != 0;
    }
    java.util.regex.Matcher m = LEADING_NUMBER.matcher(v.toString());
    return m.find() && new BigDecimal(m.group().strip()).signum() != 0;
  }

  private static Number asNumber(Object v) {
    return v instanceof Number n ? n : new BigDecimal(v.toString().trim());
  }

  private SQLException unsupported(Expression e) {
    return ShardexError.CROSS_SHARD.exception("SELECT", shards,
        "its HAVING term '" + e + "' cannot be evaluated on merged groups", "simplify the HAVING clause or route by key");
  }
}
