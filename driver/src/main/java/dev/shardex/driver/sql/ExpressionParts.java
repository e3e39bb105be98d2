package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/** The parts of an expression the cross-shard cuts look at: its AND-ed terms and the columns it reads. */
final class ExpressionParts {
  private ExpressionParts() {}

  static List<Expression> conjuncts(Expression e) {
    List<Expression> out = new ArrayList<>();
    if (e instanceof AndExpression and) {
      out.addAll(conjuncts(and.getLeftExpression()));
      out.addAll(conjuncts(and.getRightExpression()));
    } else if (e != null) {
      out.add(e);
    }
    return out;
  }

  /** The columns an expression reads; a subquery in it is refused (its columns are another statement's). */
  static List<Column> columns(Expression e) throws JoinSplitter.Refused {
    List<Column> columns = new ArrayList<>();
    boolean[] sub = {false};
    e.accept(new SubqueryVisitor<Void>() {
      @Override
      public <S> Void visit(Column column, S context) {
        columns.add(column);
        return null;
      }

      @Override
      public <S> Void visit(ParenthesedSelect s, S context) {
        sub[0] = true;
        return null;
      }

      @Override
      public <S> Void visit(Select s, S context) {
        sub[0] = true;
        return null;
      }
    }, null);
    if (sub[0]) {
      throw new JoinSplitter.Refused("a subquery");
    }
    return columns;
  }
}
