package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.AnyType;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
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
 * Citus's pull-out): uncorrelated {@code x [NOT] IN (SELECT y ...)} (also written {@code = ANY},
 * {@code <> ALL}), {@code [NOT] EXISTS} correlated by equalities ({@link CorrelatedExists}) or by
 * none, a correlated IN that is an AND-ed term of the WHERE as such an EXISTS
 * ({@link SubqueryForms}), and uncorrelated scalar subqueries. IN
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
    SCALAR,
    /** x > ALL (values), x < ANY (values), ...: the values as a UNION ALL of parameters. */
    QUANTIFIED
  }

  /**
   * One subquery: its statement (with the parameters it binds) and how its answer replaces it;
   * {@code column}: for a scalar one that is a select item by itself, its result column (0-based,
   * its metadata is the subquery's), else -1; {@code outers}: a decorrelated EXISTS's outer columns,
   * one per column of its statement (its values are rows of that many), else empty.
   */
  public record Sub(Kind kind, String sql, int[] params, String left, boolean not, String marker, int column,
      List<String> outers) {
    /** How many columns each of its values has. */
    public int width() {
      return Math.max(1, outers.size());
    }
  }

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
      if (s.kind() == Kind.QUANTIFIED) {
        List<String> selects = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
          selects.add("SELECT ?" + ++next[0]);
        }
        return "(" + s.left() + " (" + String.join(" UNION ALL ", selects) + "))";
      }
      String in = s.left() + (s.not() ? " NOT IN (" : " IN (") + valueList(values.size(), s.width(), next) + ")";
      if (s.kind() == Kind.EXISTS) {
        String nulls = String.join(s.not() ? " OR " : " AND ",
            s.outers().stream().map(c -> c + (s.not() ? " IS NULL" : " IS NOT NULL")).toList());
        return "(" + nulls + (s.not() ? " OR " : " AND ") + in + ")";
      }
      return "(" + in + ")";
    }

    /** {@code ?a, ?b} for values one column wide, {@code (?a, ?b), (?c, ?d)} for rows. */
    private static String valueList(int values, int width, int[] next) {
      StringBuilder list = new StringBuilder();
      for (int i = 0; i < values; i++) {
        String sep = i == 0 ? "" : width > 1 && i % width == 0 ? "), (" : ", ";
        list.append(sep).append('?').append(++next[0]);
      }
      return width == 1 ? list.toString() : "(" + list + ")";
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
    SubqueryForms.Membership in = SubqueryForms.membership(e);
    if (in != null && !pullable(in.select())) {
      // a correlated IN, an AND-ed term of the WHERE (collect found it so): an EXISTS, or, if that
      // cannot be decorrelated, left in the statement as it was (routing then names it)
      PlainSelect inner = (PlainSelect) in.select();
      Expression where = inner.getWhere();
      try {
        return CorrelatedExists.of(SubqueryForms.asExists(in), false, marker, catalog);
      } catch (JoinSplitter.Refused r) {
        inner.setWhere(where);
        return null;
      }
    }
    if (in != null) {
      NumberedParameters.Text sub = NumberedParameters.print(in.select());
      return new Sub(Kind.IN, sub.sql(), sub.order(), in.left().toString(), in.not(), marker, -1, List.of());
    }
    SubqueryForms.Quantified q = SubqueryForms.quantified(e);
    if (q != null) { // no values: ALL is TRUE, ANY FALSE, as for NOT IN and IN
      NumberedParameters.Text sub = NumberedParameters.print(q.select());
      return new Sub(Kind.QUANTIFIED, sub.sql(), sub.order(), q.prefix(), q.type() == AnyType.ALL, marker, -1, List.of());
    }
    PlainSelect scalar = (PlainSelect) ((ParenthesedSelect) e).getSelect();
    if (scalar.getLimit() == null && scalar.getOffset() == null) {
      scalar.setLimit(new Limit().withRowCount(new LongValue(2))); // a second row is an error: read no more
    }
    NumberedParameters.Text sub = NumberedParameters.print(scalar);
    return new Sub(Kind.SCALAR, sub.sql(), sub.order(), null, false, marker, columns.getOrDefault(e, -1), List.of());
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
    Set<Expression> terms = Collections.newSetFromMap(new IdentityHashMap<>());
    terms.addAll(ExpressionParts.conjuncts(select.getWhere()));
    ExpressionVisitorAdapter<Void> finder = new ExpressionVisitorAdapter<>() {
      @Override
      public <S> Void visit(InExpression in, S context) {
        if (in.getRightExpression() instanceof ParenthesedSelect) {
          if (!membership(in, terms)) {
            in.getLeftExpression().accept(this, context); // the subquery itself is not a scalar one
          }
          return null;
        }
        return super.visit(in, context);
      }

      @Override
      protected <S> Void visitBinaryExpression(BinaryExpression b, S context) {
        // x = ANY (...), x <> ALL (...), x > ALL (...), ...: every comparison arrives here
        return b instanceof ComparisonOperator && membership(b, terms) ? null : super.visitBinaryExpression(b, context);
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
        return null; // x > ANY (SELECT ...), x = ALL (...): not pulled out
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

  /**
   * Notes a membership test to pull out: uncorrelated (IN, = ANY, <> ALL), or correlated and an
   * AND-ed term of the WHERE ({@code terms}), to be read as an EXISTS; or an uncorrelated other
   * comparison with ANY/ALL over an integer or DECIMAL column; whether it was one.
   */
  private boolean membership(Expression e, Set<Expression> terms) {
    SubqueryForms.Quantified q = SubqueryForms.quantified(e);
    if (q != null && pullable(q.select()) && SubqueryForms.exactNumber(q.select(), catalog)) {
      found.add(e);
      return true;
    }
    SubqueryForms.Membership m = SubqueryForms.membership(e);
    if (m == null) {
      return false;
    }
    if (pullable(m.select()) || (terms.contains(e) && SubqueryForms.existsCandidate(m) && sharded(m.select()))) {
      found.add(e);
      return true;
    }
    return false;
  }

  private boolean sharded(Select s) {
    SubqueryScope scope = SubqueryScope.of((PlainSelect) s, catalog);
    return scope != null && scope.sharded();
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
