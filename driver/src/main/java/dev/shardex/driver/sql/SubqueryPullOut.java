package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Finds the subqueries of a SELECT that read a SHARDED table and can run first, as statements of
 * their own (answered across shards like any other), to be replaced by their answers (Vitess's and
 * Citus's pull-out): uncorrelated {@code x [NOT] IN (SELECT y ...)}, {@code [NOT] EXISTS} correlated
 * by one equality ({@link CorrelatedExists}) or by none, and uncorrelated scalar subqueries. IN
 * values go in literally, a NULL included, so MySQL applies its own three-valued logic; an empty
 * answer makes {@code x IN (...)} FALSE and {@code x NOT IN (...)} TRUE, whatever x is, as on one
 * server. A scalar subquery's one value goes in as a typed value (0 rows: NULL; 2 rows: error 1242).
 */
public final class SubqueryPullOut {
  /** How a subquery's answer replaces it. */
  public enum Kind {
    /** x [NOT] IN (values). */
    IN,
    /** a correlated [NOT] EXISTS: the outer column against the distinct non-NULL values. */
    EXISTS,
    /** an uncorrelated [NOT] EXISTS: TRUE or FALSE. */
    ANY_ROW,
    /** (SELECT one value): that value, typed; NULL when no row. */
    SCALAR
  }

  /**
   * One subquery: its statement (with the parameters it binds) and how its answer replaces it;
   * {@code column}: for a scalar one that is a select item by itself, its result column (0-based,
   * its metadata is the subquery's), else -1.
   */
  public record Sub(Kind kind, String sql, int[] params, String left, boolean not, String marker, int column) {}

  /**
   * A subquery's answer: its distinct values (IN, EXISTS), its one value or none (SCALAR, ANY_ROW);
   * {@code cast}: the CAST type of a bound temporal value.
   */
  public record Answer(List<Object> values, String cast) {}

  /**
   * The statement's text with a marker per subquery (parameters numbered {@code ?N}), and the
   * subqueries; or, in {@code refused}, why a subquery over a SHARDED table cannot be pulled out.
   */
  public record Plan(String marked, List<Sub> subs, String refused) {
    /**
     * The text with every subquery replaced by its answer; the answers' values are numbered after
     * the statement's own {@code paramCount} parameters, in order.
     */
    public NumberedParameters.Text substitute(List<Answer> answers, int paramCount) {
      String text = marked;
      int[] next = {paramCount};
      for (int k = 0; k < subs.size(); k++) {
        text = text.replace(subs.get(k).marker(), replacement(subs.get(k), answers.get(k), next));
      }
      return NumberedParameters.print(text);
    }

    private static String replacement(Sub s, Answer answer, int[] next) {
      List<Object> values = answer.values();
      if (s.kind() == Kind.ANY_ROW || values.isEmpty()) {
        return switch (s.kind()) {
          case SCALAR -> "NULL";
          case ANY_ROW -> values.isEmpty() == s.not() ? "TRUE" : "FALSE";
          default -> s.not() ? "TRUE" : "FALSE";
        };
      }
      if (s.kind() == Kind.SCALAR) {
        String marker = "?" + ++next[0];
        return answer.cast() == null ? marker : "CAST(" + marker + " AS " + answer.cast() + ")";
      }
      StringBuilder list = new StringBuilder();
      for (int i = 0; i < values.size(); i++) {
        list.append(i == 0 ? "" : ", ").append('?').append(++next[0]);
      }
      String in = s.left() + (s.not() ? " NOT IN (" : " IN (") + list + ")";
      if (s.kind() == Kind.EXISTS) {
        return s.not() ? "(" + s.left() + " IS NULL OR " + in + ")" : "(" + s.left() + " IS NOT NULL AND " + in + ")";
      }
      return "(" + in + ")";
    }
  }

  private final JoinSplitter.Catalog catalog;
  private final List<Expression> found = new ArrayList<>();
  /** The found scalar subqueries that are a select item by themselves, with the item's column (none under a *). */
  @SuppressWarnings("IdentityHashMapUsage") // subquery nodes by identity: two equal texts are two items
  private final java.util.Map<Expression, Integer> columns = new java.util.IdentityHashMap<>();

  private SubqueryPullOut(JoinSplitter.Catalog catalog) {
    this.catalog = catalog;
  }

  /** The plan for {@code sql}, or null when it has no such subquery. */
  public static Plan of(String sql, JoinSplitter.Catalog catalog) throws java.sql.SQLException {
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect select)) {
      return null;
    }
    SubqueryPullOut p = new SubqueryPullOut(catalog);
    p.collect(select);
    if (p.found.isEmpty()) {
      return null;
    }
    java.util.Map<String, String> labels = labelItems(select, p.found);
    String marked = select.toString();
    List<Sub> subs = new ArrayList<>();
    String refused = null;
    for (Expression e : p.found) {
      String whole = e.toString();
      if (!marked.contains(whole)) {
        continue;
      }
      String marker = "__shx_subquery_" + subs.size() + "__";
      try {
        Sub sub = p.sub(e, marker);
        if (sub != null) {
          marked = marked.replace(whole, marker);
          subs.add(sub);
        }
      } catch (JoinSplitter.Refused r) {
        // stays in the statement: it may run where its outer rows are once the others are pulled out
        refused = refused == null ? r.getMessage() : refused;
      }
    }
    if (subs.isEmpty()) {
      return refused == null ? null : new Plan(null, List.of(), refused);
    }
    for (java.util.Map.Entry<String, String> label : labels.entrySet()) {
      marked = marked.replace(label.getKey(), label.getValue()); // after the subqueries' text was replaced
    }
    return new Plan(marked, subs, null);
  }

  /** The subquery to run first for a found expression; null when it stays in the statement. */
  private Sub sub(Expression e, String marker) throws JoinSplitter.Refused {
    if (e instanceof ExistsExpression exists) {
      return CorrelatedExists.of(exists, exists.isNot(), marker, catalog);
    }
    if (e instanceof NotExpression not) {
      ExistsExpression exists = (ExistsExpression) not.getExpression();
      return CorrelatedExists.of(exists, !exists.isNot(), marker, catalog);
    }
    if (e instanceof InExpression in) {
      NumberedParameters.Text sub = NumberedParameters.print(((ParenthesedSelect) in.getRightExpression()).getSelect());
      return new Sub(Kind.IN, sub.sql(), sub.order(), in.getLeftExpression().toString(), in.isNot(), marker, -1);
    }
    PlainSelect scalar = (PlainSelect) ((ParenthesedSelect) e).getSelect();
    if (scalar.getLimit() == null && scalar.getOffset() == null) {
      scalar.setLimit(new Limit().withRowCount(new LongValue(2))); // a second row is an error: read no more
    }
    NumberedParameters.Text sub = NumberedParameters.print(scalar);
    return new Sub(Kind.SCALAR, sub.sql(), sub.order(), null, false, marker, columns.getOrDefault(e, -1));
  }

  /**
   * A select item that holds a subquery and has no alias keeps the label one server prints (its
   * text), not that of what replaces the subquery: it gets an alias token, to be written as that
   * text once the subqueries are replaced; the tokens and their texts.
   */
  private static java.util.Map<String, String> labelItems(PlainSelect select, List<Expression> found) {
    java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      String text = item.getExpression().toString();
      if (item.getAlias() == null && found.stream().anyMatch(e -> text.contains(e.toString())) && !text.contains("?")
          && !text.contains("`")) {
        String token = "__shx_label_" + labels.size() + "__";
        labels.put(token, text);
        item.setAlias(new Alias("`" + token + "`"));
      }
    }
    return labels;
  }

  private void collect(PlainSelect select) {
    ExpressionVisitorAdapter<Void> finder = new ExpressionVisitorAdapter<>() {
      @Override
      public <S> Void visit(InExpression in, S context) {
        if (in.getRightExpression() instanceof ParenthesedSelect sub) {
          if (pullable(sub.getSelect())) {
            found.add(in);
          } else {
            in.getLeftExpression().accept(this, context); // the subquery itself is not a scalar one
          }
          return null;
        }
        return super.visit(in, context);
      }

      @Override
      public <S> Void visit(ExistsExpression exists, S context) {
        found.add(exists);
        return null;
      }

      @Override
      public <S> Void visit(NotExpression not, S context) {
        if (not.getExpression() instanceof ExistsExpression) {
          found.add(not); // NOT EXISTS, as JSqlParser reads it
          return null;
        }
        return super.visit(not, context);
      }

      @Override
      public <S> Void visit(ParenthesedSelect sub, S context) {
        return visit((Select) sub, context);
      }

      @Override
      public <S> Void visit(Select sub, S context) {
        // a subquery in an expression arrives here (its accept is Select's)
        if (sub instanceof ParenthesedSelect p && pullable(p.getSelect())) {
          found.add(p);
        }
        return null;
      }

      @Override
      public <S> Void visit(AnyComparisonExpression any, S context) {
        return null; // x = ANY (SELECT ...): not pulled out
      }
    };
    List<SelectItem<?>> items = select.getSelectItems();
    boolean star = items.stream().anyMatch(i -> i.getExpression() instanceof AllColumns);
    for (int i = 0; i < items.size(); i++) {
      accept(items.get(i).getExpression(), finder);
      if (!star && found.contains(items.get(i).getExpression())) {
        columns.put(items.get(i).getExpression(), i);
      }
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
        || p.getSelectItems().get(0).getExpression() instanceof AllColumns) {
      return false;
    }
    SubqueryScope scope = SubqueryScope.of(p, catalog);
    return scope != null && scope.sharded() && ownColumnsOnly(p, scope);
  }

  /** Whether every column the subquery reads belongs to its own tables (so it is uncorrelated; nested subqueries are not pulled out). */
  private static boolean ownColumnsOnly(PlainSelect p, SubqueryScope scope) {
    List<Expression> parts = new ArrayList<>();
    parts.add(p.getSelectItems().get(0).getExpression());
    parts.add(p.getWhere());
    parts.add(p.getHaving());
    if (p.getJoins() != null) {
      for (Join j : p.getJoins()) {
        if (j.getOnExpressions() != null) {
          parts.addAll(j.getOnExpressions());
        }
      }
    }
    if (p.getGroupBy() != null && p.getGroupBy().getGroupByExpressionList() != null) {
      for (Object e : p.getGroupBy().getGroupByExpressionList()) {
        parts.add((Expression) e);
      }
    }
    if (p.getOrderByElements() != null) {
      p.getOrderByElements().forEach(o -> parts.add(o.getExpression()));
    }
    return parts.stream().allMatch(e -> scope.outer(e).isEmpty());
  }
}
