package dev.shardex.driver.sql;

import dev.shardex.driver.sql.MergeSpec.Fold;
import dev.shardex.driver.sql.MergeSpec.Slot;
import dev.shardex.driver.sql.MergeSpec.SortKey;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * sql stage, for SELECTs that run on several shards: rewrites the statement into what each shard
 * runs and how the merge stage folds the results (a {@link MergeSpec}). Shardex rewrites the
 * parse tree and prints it back, so the text a shard receives is JSqlParser's rendering of the
 * statement; parameters keep their order through fixed-index markers.
 *
 * <p>The rules: the caller's columns come first; AVG(x) becomes SUM(x) plus a hidden COUNT(x);
 * COUNT(DISTINCT x) becomes x with x added to the GROUP BY; ORDER BY, GROUP BY and HAVING terms
 * that are not among the caller's columns become hidden columns; HAVING, ORDER BY and LIMIT are
 * taken off grouped queries (they apply to merged groups); LIMIT n OFFSET m becomes LIMIT n+m on
 * ungrouped ones.
 */
final class MergeRewriter {
  private static final Set<String> FOLDABLE = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");
  private static final String HIDDEN = "__shx_";

  private final PlainSelect select;
  private final List<SelectItem<?>> items;
  private final List<Slot> columns = new ArrayList<>();
  /** Slots of the hidden columns, in the order they are appended after the caller's. */
  private final List<Slot> hiddenSlots = new ArrayList<>();
  private final List<SortKey> order = new ArrayList<>();
  private final List<Integer> groupKeys = new ArrayList<>();
  @SuppressWarnings("IdentityHashMapUsage") // HAVING's expression nodes by identity: equal texts are distinct references
  private final Map<Expression, Integer> havingRefs = new IdentityHashMap<>();
  /** GROUP BY terms added for COUNT(DISTINCT x): shard-side only, not merge group keys. */
  private final Set<Expression> addedGroupBy = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  private int hidden;
  private boolean aggregate;
  private boolean star;

  private final String shards;

  private MergeRewriter(PlainSelect select, String shards) {
    this.select = select;
    this.items = select == null ? List.of() : select.getSelectItems();
    this.shards = shards;
  }

  /** Rewrites a SELECT for the given shards ("0, 1, 2, 3", named in errors). */
  static MergeSpec rewrite(String sql, String shards) throws SQLException {
    Select parsed = (Select) Analyzer.parse(NumberedParameters.number(sql));
    MergeRewriter r = new MergeRewriter(parsed instanceof PlainSelect p ? p : null, shards);
    if (r.select == null || parsed.getWithItemsList() != null) {
      throw r.unsupported("this SELECT shape (UNION, VALUES or WITH)");
    }
    return r.build();
  }

  private MergeSpec build() throws SQLException {
    if (items.stream().anyMatch(i -> hasWindow(i.getExpression()))) {
      throw unsupported("window functions (OVER) across shards");
    }
    if (select.getGroupBy() != null && select.getGroupBy().isMysqlWithRollup()) {
      throw unsupported("GROUP BY ... WITH ROLLUP across shards (its subtotal rows would fold across levels:"
          + " group without ROLLUP and add the subtotals in the application)");
    }
    // HAVING with an aggregate makes the whole table one group, even without GROUP BY
    aggregate = select.getGroupBy() != null || items.stream().anyMatch(i -> isAggregate(i.getExpression()))
        || isAggregate(select.getHaving());
    star = items.stream().anyMatch(i -> i.getExpression() instanceof AllColumns
        || i.getExpression() instanceof net.sf.jsqlparser.statement.select.AllTableColumns);
    if (aggregate && star) {
      throw unsupported("SELECT * with aggregates or GROUP BY across shards");
    }
    ValueSource limit = null;
    ValueSource offset = null;
    Limit l = select.getLimit();
    if (l != null) {
      limit = value(l.getRowCount());
      offset = l.getOffset() == null ? null : value(l.getOffset());
    }
    if (select.getOffset() != null) {
      offset = value(select.getOffset().getOffset());
    }
    boolean distinct = select.getDistinct() != null;
    int visible = items.size();
    List<SelectItem<?>> hiddenItems = new ArrayList<>();
    if (aggregate) {
      foldItems(hiddenItems);
      groupKeys(hiddenItems, visible);
    } else {
      for (int i = 0; i < visible; i++) {
        columns.add(new Slot(Fold.FIRST, 0, null));
      }
    }
    orderKeys(hiddenItems, visible, star);
    // without aggregation HAVING filters single rows (MySQL allows it): the shards apply it
    Expression having = aggregate ? select.getHaving() : null;
    if (having != null) {
      havingRefs(having, hiddenItems, visible);
    }
    if (aggregate) {
      select.setHaving(null);
      select.setOrderByElements(null);
    }
    select.setLimit(null);
    select.setOffset(null);
    hidden = hiddenItems.size();
    for (SelectItem<?> h : hiddenItems) {
      select.addSelectItem(h.getExpression(), h.getAlias());
    }
    if (aggregate) {
      columns.addAll(hiddenSlots);
    }
    NumberedParameters.Text text = NumberedParameters.print(select);
    return new MergeSpec(text.sql(), text.order(), hidden, aggregate, List.copyOf(columns), List.copyOf(groupKeys),
        List.copyOf(order), distinct, limit, offset, having, havingRefs);
  }

  /** The caller's columns of a grouped query: each folds by its aggregate; AVG gets a hidden COUNT. */
  private void foldItems(List<SelectItem<?>> hiddenItems) throws SQLException {
    for (SelectItem<?> item : items) {
      Expression e = item.getExpression();
      if (e instanceof Function f && isAggregate(e) && !isAggregate(f)) {
        throw unsupported(f.getName().toUpperCase(Locale.ROOT) + "(...) across shards (it cannot be folded from per-shard parts)");
      }
      if (!(e instanceof Function f && isAggregate(f)) && isAggregate(e)) {
        throw unsupported("an aggregate inside an expression ('" + e + "') across shards");
      }
    }
    // COUNT(DISTINCT x) adds x to the shards' GROUP BY: the other aggregates then come back as
    // partials of finer groups, which fold into the caller's groups all the same.
    for (SelectItem<?> any : items) {
      @SuppressWarnings("unchecked")
      SelectItem<Expression> item = (SelectItem<Expression>) any;
      Expression e = item.getExpression();
      if (!(e instanceof Function f) || !isAggregate(f)) {
        columns.add(new Slot(Fold.FIRST, 0, null));
        continue;
      }
      String name = f.getName().toUpperCase(Locale.ROOT);
      String label = item.getAlias() != null ? item.getAlias().getName() : e.toString();
      String text = e.toString();
      if (f.isDistinct()) {
        Fold distinctFold = distinctFold(name, f);
        Expression arg = f.getParameters().get(0);
        item.setExpression(arg);
        item.setAlias(new Alias(quote(label), true));
        addGroupBy(arg);
        columns.add(new Slot(distinctFold, 0, text, labelTemplate(label)));
      } else if (name.equals("AVG")) {
        if (f.getParameters() == null || f.getParameters().size() != 1) {
          throw ShardexError.PARSE.exception("AVG takes exactly one argument: " + text);
        }
        Expression arg = f.getParameters().get(0);
        item.setExpression(function("SUM", arg));
        item.setAlias(new Alias(quote(label), true));
        int count = items.size() + hiddenItems.size() + 1;
        hiddenItems.add(hiddenItem(function("COUNT", arg), hiddenItems.size()));
        hiddenSlots.add(new Slot(Fold.COUNT, 0, null));
        columns.add(new Slot(Fold.SUM, count, text, labelTemplate(label)));
      } else {
        columns.add(new Slot(Fold.valueOf(name), 0, text));
      }
    }
  }

  /** COUNT/SUM/AVG(DISTINCT x) travel as x, grouped on the shards, and fold over the distinct values. */
  private Fold distinctFold(String name, Function f) throws SQLException {
    if (f.getParameters() == null || f.getParameters().size() != 1) {
      throw unsupported(name + "(DISTINCT ...) of several expressions across shards");
    }
    return switch (name) {
      case "COUNT" -> Fold.DISTINCT_VALUES;
      case "SUM" -> Fold.DISTINCT_SUM;
      case "AVG" -> Fold.DISTINCT_AVG;
      case "MIN" -> Fold.MIN; // MIN/MAX(DISTINCT x) = MIN/MAX(x)
      case "MAX" -> Fold.MAX;
      default -> throw unsupported(name + "(DISTINCT ...) across shards");
    };
  }

  private void groupKeys(List<SelectItem<?>> hiddenItems, int visible) {
    if (select.getGroupBy() == null) {
      return;
    }
    for (Expression g : select.getGroupBy().getGroupByExpressionList()) {
      if (g instanceof LongValue position) {
        groupKeys.add(position(position)); // GROUP BY 2: the caller's second column
      } else if (!addedGroupBy.contains(g)) {
        groupKeys.add(columnFor(g, hiddenItems, visible, Fold.FIRST));
      }
    }
  }

  /**
   * A GROUP BY / ORDER BY position as written; one past int's range (ORDER BY 18446744073709551616)
   * is past any select list all the same, and the merge answers it as the server does (1054).
   */
  private static int position(LongValue position) {
    java.math.BigInteger v = position.getBigIntegerValue();
    return v.signum() >= 0 && v.bitLength() < 31 ? v.intValue() : Integer.MAX_VALUE;
  }

  private void orderKeys(List<SelectItem<?>> hiddenItems, int visible, boolean star) throws SQLException {
    if (select.getOrderByElements() == null) {
      return;
    }
    for (OrderByElement o : select.getOrderByElements()) {
      if (o.getNullOrdering() != null) {
        throw unsupported("NULLS FIRST/LAST across shards");
      }
      Expression e = o.getExpression();
      int column;
      if (e instanceof LongValue position) {
        column = position(position);
      } else if (star && !aggregate) {
        column = hiddenColumn(e, hiddenItems, Fold.FIRST);
      } else if (e instanceof Function f && isAggregate(f)) {
        column = aggregateColumn(f, hiddenItems, visible);
      } else if (isAggregate(e)) {
        throw unsupported("ORDER BY an expression over aggregates ('" + e + "') across shards; select it and order by its alias");
      } else {
        int named = selectedColumnNamed(e, visible);
        column = named > 0 ? named : columnFor(e, hiddenItems, visible, Fold.FIRST);
      }
      order.add(new SortKey(column, o.isAsc()));
    }
  }

  private void havingRefs(Expression having, List<SelectItem<?>> hiddenItems, int visible) throws SQLException {
    SQLException[] error = {null};
    having.accept(new ExpressionVisitorAdapter<Void>() {
      @Override
      public <S> Void visit(Function f, S context) {
        if (isAggregate(f)) {
          try {
            havingRefs.put(f, aggregateColumn(f, hiddenItems, visible));
          } catch (SQLException e) {
            error[0] = e;
          }
          return null;
        }
        return super.visit(f, context);
      }

      @Override
      public <S> Void visit(Column c, S context) {
        havingRefs.put(c, columnFor(c, hiddenItems, visible, Fold.FIRST));
        return null;
      }

      @Override
      public <S> Void visit(DateUnitExpression d, S context) {
        havingRefs.put(d, columnFor(d, hiddenItems, visible, Fold.FIRST)); // an alias such as `year`
        return null;
      }
    }, null);
    if (error[0] != null) {
      throw error[0];
    }
  }

  /**
   * The merged column holding an aggregate: the caller's, if it selects the same aggregate, or new
   * hidden ones (COUNT(DISTINCT x) as x grouped on the shards, AVG as SUM plus COUNT).
   */
  private int aggregateColumn(Function f, List<SelectItem<?>> hiddenItems, int visible) throws SQLException {
    String text = f.toString();
    for (int i = 0; i < visible && i < columns.size(); i++) {
      if (text.equalsIgnoreCase(columns.get(i).aggregateText())) {
        return i + 1;
      }
    }
    String name = f.getName().toUpperCase(Locale.ROOT);
    if (f.isDistinct()) {
      Fold distinctFold = distinctFold(name, f);
      Expression arg = f.getParameters().get(0);
      addGroupBy(arg);
      hiddenItems.add(hiddenItem(arg, hiddenItems.size()));
      hiddenSlots.add(new Slot(distinctFold, 0, text));
      return items.size() + hiddenItems.size();
    }
    if (name.equals("AVG")) {
      Expression arg = f.getParameters().get(0);
      int sum = items.size() + hiddenItems.size() + 1;
      hiddenItems.add(hiddenItem(function("SUM", arg), hiddenItems.size()));
      hiddenSlots.add(new Slot(Fold.SUM, sum + 1, text));
      hiddenItems.add(hiddenItem(function("COUNT", arg), hiddenItems.size()));
      hiddenSlots.add(new Slot(Fold.COUNT, 0, null));
      return sum;
    }
    hiddenItems.add(hiddenItem(f, hiddenItems.size()));
    hiddenSlots.add(new Slot(foldOf(f), 0, text));
    return items.size() + hiddenItems.size();
  }

  /** The shard column holding this expression: a caller's column (by alias or same text), or a new hidden one. */
  private int columnFor(Expression e, List<SelectItem<?>> hiddenItems, int visible, Fold fold) {
    String text = e.toString();
    for (int i = 0; i < visible; i++) {
      SelectItem<?> item = items.get(i);
      String alias = item.getAlias() == null ? null : TemplateBuilder.unquote(item.getAlias().getName());
      boolean sameAlias = alias != null && alias.equals(bareName(e));
      Slot kind = i < columns.size() ? columns.get(i) : null;
      boolean rewritten = kind != null && (kind.avgCount() > 0 || kind.fold() == Fold.DISTINCT_VALUES);
      if (sameAlias || (!rewritten && item.getExpression().toString().equalsIgnoreCase(text))) {
        return i + 1;
      }
    }
    return hiddenColumn(e, hiddenItems, fold);
  }

  /**
   * MySQL resolves an unqualified ORDER BY name against the select list first: {@code ORDER BY x}
   * sorts by a selected {@code t.x}. The caller's column (1-based) so selected, or 0. A hidden
   * unqualified copy would be ambiguous in a self-join.
   */
  private int selectedColumnNamed(Expression e, int visible) {
    String name = e instanceof Column c && c.getTable() == null ? bareName(e) : null;
    for (int i = 0; name != null && i < visible; i++) {
      SelectItem<?> item = items.get(i);
      Slot kind = i < columns.size() ? columns.get(i) : null;
      if (item.getAlias() == null && item.getExpression() instanceof Column sc
          && name.equals(TemplateBuilder.unquote(sc.getColumnName())) && (kind == null || kind.fold() == Fold.FIRST)) {
        return i + 1;
      }
    }
    return 0;
  }

  /**
   * The name an unqualified column, or a word JSqlParser reads as a keyword (YEAR, MONTH, ... in
   * GROUP BY year), stands for; null for anything else.
   */
  private static String bareName(Expression e) {
    if (e instanceof Column c && c.getTable() == null) {
      return TemplateBuilder.unquote(c.getColumnName());
    }
    return e instanceof DateUnitExpression d ? d.toString().toLowerCase(Locale.ROOT) : null;
  }

  private int hiddenColumn(Expression e, List<SelectItem<?>> hiddenItems, Fold fold) {
    hiddenItems.add(hiddenItem(qualifiedForStar(e), hiddenItems.size()));
    hiddenSlots.add(new Slot(fold, 0, null));
    // with SELECT * the caller's column count is unknown here: address hidden columns from the end
    return star ? -hiddenItems.size() : items.size() + hiddenItems.size();
  }

  /**
   * With only {@code x.*} selected, MySQL finds an unqualified ORDER BY column among x's columns;
   * as a hidden select item it would be ambiguous in a self-join, so it is qualified with x.
   */
  private Expression qualifiedForStar(Expression e) {
    if (!(e instanceof Column c) || c.getTable() != null || !star) {
      return e;
    }
    net.sf.jsqlparser.schema.Table only = null;
    for (SelectItem<?> item : items) {
      if (item.getExpression() instanceof net.sf.jsqlparser.statement.select.AllTableColumns t) {
        if (only != null) {
          return e;
        }
        only = t.getTable();
      } else if (item.getExpression() instanceof AllColumns) {
        return e;
      }
    }
    return only == null ? e : new Column(new net.sf.jsqlparser.schema.Table(only.getFullyQualifiedName()), c.getColumnName());
  }

  private static SelectItem<?> hiddenItem(Expression e, int n) {
    return new SelectItem<>(e, new Alias(HIDDEN + n, true));
  }

  @SuppressWarnings("deprecation") // JSqlParser 5.4 deprecates it without a replacement taking one expression
  private void addGroupBy(Expression e) {
    GroupByElement g = select.getGroupBy();
    if (g == null) {
      g = new GroupByElement();
      select.setGroupByElement(g);
    }
    g.addGroupByExpression(e);
    addedGroupBy.add(e);
  }

  static boolean isAggregate(Expression e) {
    boolean[] found = {false};
    if (e == null) {
      return false;
    }
    e.accept(new ExpressionVisitorAdapter<Void>() {
      @Override
      public <S> Void visit(Function f, S context) {
        if (TemplateBuilder.AGGREGATES.contains(f.getName().toUpperCase(Locale.ROOT))) {
          found[0] = true;
        }
        return super.visit(f, context);
      }

      @Override
      public <S> Void visit(AnalyticExpression a, S context) {
        found[0] = true;
        return null;
      }

      @Override
      public <S> Void visit(net.sf.jsqlparser.statement.select.ParenthesedSelect sub, S context) {
        return null;
      }
    }, null);
    return found[0];
  }

  static boolean hasWindow(Expression e) {
    boolean[] found = {false};
    if (e != null) {
      e.accept(new ExpressionVisitorAdapter<Void>() {
        @Override
        public <S> Void visit(AnalyticExpression a, S context) {
          found[0] = true;
          return null;
        }
      }, null);
    }
    return found[0];
  }

  private static boolean isAggregate(Function f) {
    return FOLDABLE.contains(f.getName().toUpperCase(Locale.ROOT));
  }

  private static Fold foldOf(Expression e) {
    if (e instanceof Function f) {
      String name = f.getName().toUpperCase(Locale.ROOT);
      if (FOLDABLE.contains(name) && !name.equals("AVG")) {
        return Fold.valueOf(name);
      }
    }
    return Fold.FIRST;
  }

  private static Function function(String name, Expression arg) {
    Function f = new Function();
    f.setName(name);
    f.setParameters(new ExpressionList<>(arg));
    return f;
  }

  /** A label that quotes parameters (?N) must be filled in per execution; others are final already. */
  private static String labelTemplate(String label) {
    return label.matches("(?s).*\\?\\d.*") ? label : null;
  }

  private static String quote(String label) {
    return "`" + label.replace("`", "``") + "`";
  }

  static ValueSource value(Expression e) {
    if (e instanceof JdbcParameter p) {
      return new ValueSource.Param(p.getIndex() - 1);
    }
    if (e instanceof LongValue l) {
      // a LIMIT past Long.MAX_VALUE (JSqlParser keeps its text) is a whole number all the same
      return new ValueSource.Literal(l.getBigIntegerValue().bitLength() < 64 ? (Object) l.getValue() : l.getBigIntegerValue());
    }
    return e == null ? null : new ValueSource.Opaque(e.toString());
  }

  private SQLException unsupported(String what) {
    return ShardexError.CROSS_SHARD.exception("SELECT", shards, what + " is not supported",
        "add the key (key = ? or key IN (...) on one shard) to route it to one shard");
  }
}
