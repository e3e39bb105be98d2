package dev.shardex.driver.sql;

import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Finds the uncorrelated {@code x [NOT] IN (SELECT y FROM ...)} subqueries of a SELECT that read a
 * SHARDED table, so they can run first as statements of their own (answered across shards like
 * any other) and be replaced by their values (Vitess's and Citus's pull-out). The values go in
 * literally, a NULL included, so MySQL applies its own three-valued logic; an empty answer makes
 * {@code x IN (...)} FALSE and {@code x NOT IN (...)} TRUE, whatever x is, as on one server.
 */
public final class SubqueryPullOut {
  /** One subquery: its statement (with the parameters it binds) and how its answer replaces it. */
  public record Sub(String sql, int[] params, String left, boolean not, String marker) {}

  /** The statement's text with a marker per subquery (parameters numbered {@code ?N}), and the subqueries. */
  public record Plan(String marked, List<Sub> subs) {
    /**
     * The text with every subquery replaced by its answer; {@code answers.get(k)} are subquery k's
     * distinct values, numbered after the statement's own {@code paramCount} parameters in order.
     */
    public NumberedParameters.Text substitute(List<List<Object>> answers, int paramCount) {
      String text = marked;
      int next = paramCount;
      for (int k = 0; k < subs.size(); k++) {
        Sub s = subs.get(k);
        List<Object> values = answers.get(k);
        String replacement;
        if (values.isEmpty()) {
          replacement = s.not() ? "TRUE" : "FALSE";
        } else {
          StringBuilder list = new StringBuilder();
          for (int i = 0; i < values.size(); i++) {
            list.append(i == 0 ? "" : ", ").append('?').append(++next);
          }
          replacement = "(" + s.left() + (s.not() ? " NOT IN (" : " IN (") + list + "))";
        }
        text = text.replace(s.marker(), replacement);
      }
      return NumberedParameters.print(text);
    }
  }

  private final JoinSplitter.Catalog catalog;
  private final List<InExpression> found = new ArrayList<>();

  private SubqueryPullOut(JoinSplitter.Catalog catalog) {
    this.catalog = catalog;
  }

  /** The plan for {@code sql}, or null when it has no such subquery. */
  public static Plan of(String sql, JoinSplitter.Catalog catalog) throws SQLException {
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect select)) {
      return null;
    }
    SubqueryPullOut p = new SubqueryPullOut(catalog);
    p.collect(select);
    String marked = select.toString();
    List<Sub> subs = new ArrayList<>();
    for (InExpression in : p.found) {
      String whole = in.toString();
      if (!marked.contains(whole)) {
        continue;
      }
      String marker = "__shx_subquery_" + subs.size() + "__";
      marked = marked.replace(whole, marker);
      NumberedParameters.Text sub = NumberedParameters.print(((ParenthesedSelect) in.getRightExpression()).getSelect());
      subs.add(new Sub(sub.sql(), sub.order(), in.getLeftExpression().toString(), in.isNot(), marker));
    }
    return subs.isEmpty() ? null : new Plan(marked, subs);
  }

  private void collect(PlainSelect select) {
    ExpressionVisitorAdapter<Void> finder = new ExpressionVisitorAdapter<>() {
      @Override
      public <S> Void visit(InExpression in, S context) {
        if (in.getRightExpression() instanceof ParenthesedSelect sub && pullable(sub.getSelect())) {
          found.add(in);
          return null;
        }
        return super.visit(in, context);
      }
    };
    for (SelectItem<?> item : select.getSelectItems()) {
      accept(item.getExpression(), finder);
    }
    accept(select.getWhere(), finder);
    accept(select.getHaving(), finder);
    if (select.getJoins() != null) {
      for (Join j : select.getJoins()) {
        j.getOnExpressions().forEach(on -> accept(on, finder));
      }
    }
  }

  private static void accept(Expression e, ExpressionVisitorAdapter<Void> v) {
    if (e != null) {
      e.accept(v, null);
    }
  }

  /** A one-column plain SELECT over plain tables, reading a SHARDED table and no column of an outer query. */
  private boolean pullable(Select s) {
    if (!(s instanceof PlainSelect p) || p.getSelectItems().size() != 1 || p.getWithItemsList() != null
        || p.getSelectItems().get(0).getExpression() instanceof net.sf.jsqlparser.statement.select.AllColumns) {
      return false;
    }
    try {
      List<Table> tables = new ArrayList<>();
      tables.add(table(p.getFromItem()));
      if (p.getJoins() != null) {
        for (Join j : p.getJoins()) {
          tables.add(table(j.getFromItem()));
        }
      }
      boolean sharded = false;
      Set<String> names = new TreeSet<>();
      List<String> columns = new ArrayList<>();
      for (Table t : tables) {
        TableDef def = catalog.def(unquote(t.getName()));
        sharded |= def != null && def.kind() == TableKind.SHARDED;
        names.add(unquote(t.getAlias() != null ? t.getAlias().getName() : t.getName()));
        columns.addAll(catalog.columns(unquote(t.getName())));
      }
      return sharded && ownColumnsOnly(p, names, columns);
    } catch (IllegalArgumentException | SQLException e) {
      return false;
    }
  }

  private static Table table(Object item) {
    if (!(item instanceof Table t)) {
      throw new IllegalArgumentException("not a plain table");
    }
    return t;
  }

  /** Whether every column the subquery reads belongs to its own tables (so it is uncorrelated). */
  private static boolean ownColumnsOnly(PlainSelect p, Set<String> names, List<String> columns) {
    boolean[] own = {true};
    ExpressionVisitorAdapter<Void> check = new ExpressionVisitorAdapter<>() {
      @Override
      public <S> Void visit(Column c, S context) {
        String q = c.getTable() == null || c.getTable().getName() == null ? null : unquote(c.getTable().getName());
        own[0] &= q != null ? names.contains(q) : columns.contains(unquote(c.getColumnName()));
        return null;
      }

      @Override
      public <S> Void visit(ParenthesedSelect s, S context) {
        own[0] = false; // nested subqueries: not pulled out
        return null;
      }
    };
    accept(p.getSelectItems().get(0).getExpression(), check);
    accept(p.getWhere(), check);
    accept(p.getHaving(), check);
    if (p.getJoins() != null) {
      for (Join j : p.getJoins()) {
        if (j.getOnExpressions() != null) {
          j.getOnExpressions().forEach(on -> accept(on, check));
        }
      }
    }
    if (p.getGroupBy() != null && p.getGroupBy().getGroupByExpressionList() != null) {
      for (Object e : p.getGroupBy().getGroupByExpressionList()) {
        accept((Expression) e, check);
      }
    }
    return own[0];
  }

  private static String unquote(String name) {
    return name.replace("`", "").toLowerCase(Locale.ROOT);
  }
}
