package dev.shardex.driver.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
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
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * Walks one parsed statement into a {@link RouteTemplate}: every table with its alias and SELECT
 * scope, the {@code col = v} / {@code col IN (...)} / {@code a.x = b.y} conjuncts of every WHERE
 * and ON (OR-ed branches are not conjuncts, so they never narrow a route), and the shape of the
 * top-level SELECT. Subqueries open a new scope whose parent is the enclosing one.
 */
final class TemplateBuilder {
  static final Set<String> AGGREGATES = Set.of(
      "COUNT", "SUM", "MIN", "MAX", "AVG", "GROUP_CONCAT", "STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP",
      "VARIANCE", "VAR_POP", "VAR_SAMP", "BIT_AND", "BIT_OR", "BIT_XOR", "JSON_ARRAYAGG", "JSON_OBJECTAGG");

  private final Hints hints;
  private final List<TableRef> tables = new ArrayList<>();
  private final List<Integer> scopeParents = new ArrayList<>();
  private final List<KeyPredicate> keys = new ArrayList<>();
  private final List<ColumnLink> links = new ArrayList<>();
  private final Set<String> cteNames = new HashSet<>();
  private final Set<Object> walked = Collections.newSetFromMap(new IdentityHashMap<>());
  private int branch;
  private boolean nestedNeedsMerge;
  /** An INSERT ... SELECT's select items that are plain columns (see {@link #sourceColumns}). */
  private List<ColumnRef> sourceColumns = List.of();
  /** Scopes whose rows reach the result: the top level, UNION branches, derived tables, CTEs. */
  private final Set<Integer> rowScopes = new HashSet<>();
  /** Derived tables that aggregate with a GROUP BY: exact when it holds a shard key (decided at route time). */
  private final List<SelectShape.KeyGrouped> keyGrouped = new ArrayList<>();
  private int maxParam;

  TemplateBuilder(Hints hints) {
    this.hints = hints;
  }

  // ---- statements -------------------------------------------------------------------------------

  RouteTemplate select(Select select) {
    int scope = newScope(-1);
    rowScopes.add(scope);
    walkSelect(select, scope);
    SelectShape shape = shape(select).withRowScopes(rowScopes).withKeyGrouped(keyGrouped);
    if (nestedNeedsMerge) {
      shape = shape.withNested();
    }
    return build(StatementType.SELECT, -1, List.of(), List.of(), false, Map.of(), shape, false);
  }

  RouteTemplate insert(Insert insert) {
    int scope = newScope(-1);
    int target = addTable(insert.getTable(), scope);
    List<String> columns = names(insert.getColumns());
    List<List<ValueSource>> rows = new ArrayList<>();
    boolean fromSelect = false;
    if (insert.getSetUpdateSets() != null) {
      List<ValueSource> row = new ArrayList<>();
      for (UpdateSet set : insert.getSetUpdateSets()) {
        columns = new ArrayList<>(columns);
        for (int i = 0; i < set.getColumns().size(); i++) {
          columns.add(columnName(set.getColumns().get(i)));
          row.add(value(set.getValues().get(i)));
        }
      }
      rows.add(row);
    } else if (insert.getSelect() instanceof Values values) {
      rows = rows(values);
    } else if (insert.getSelect() != null) {
      fromSelect = true;
      sourceColumns = sourceColumns(insert.getSelect(), newScope(scope));
    }
    Map<String, ValueSource> assignments = assignments(insert.getDuplicateUpdateSets(), scope);
    RouteTemplate t = build(StatementType.INSERT, target, columns, rows, fromSelect, assignments, SelectShape.NONE, false);
    return insert.isModifierIgnore() ? t.ignoring() : t;
  }

  RouteTemplate upsert(Upsert upsert) {
    int scope = newScope(-1);
    int target = addTable(upsert.getTable(), scope);
    List<String> columns = names(upsert.getColumns());
    List<List<ValueSource>> rows = new ArrayList<>();
    boolean fromSelect = false;
    if (upsert.getUpdateSets() != null) {
      columns = new ArrayList<>();
      List<ValueSource> row = new ArrayList<>();
      for (UpdateSet set : upsert.getUpdateSets()) {
        for (int i = 0; i < set.getColumns().size(); i++) {
          columns.add(columnName(set.getColumns().get(i)));
          row.add(value(set.getValues().get(i)));
        }
      }
      rows.add(row);
    } else if (upsert.getSelect() instanceof Values values) {
      rows = rows(values);
    } else if (upsert.getSelect() != null) {
      fromSelect = true;
      sourceColumns = sourceColumns(upsert.getSelect(), newScope(scope));
    }
    return build(StatementType.REPLACE, target, columns, rows, fromSelect, Map.of(), SelectShape.NONE, false);
  }

  RouteTemplate update(Update update) {
    int scope = newScope(-1);
    int target = addTable(update.getTable(), scope);
    walkJoins(update.getStartJoins(), scope);
    if (update.getFromItem() != null) {
      walkFrom(update.getFromItem(), scope);
    }
    walkJoins(update.getJoins(), scope);
    Map<String, ValueSource> assignments = assignments(update.getUpdateSets(), scope);
    where(update.getWhere(), scope);
    return build(StatementType.UPDATE, target, List.of(), List.of(), false, assignments, SelectShape.NONE,
        update.getLimit() != null || update.getOrderByElements() != null);
  }

  @SuppressWarnings("deprecation") // DELETE ... USING: JSqlParser 5.4 reads it only through the deprecated getter
  RouteTemplate delete(Delete delete) {
    int scope = newScope(-1);
    int target;
    if (delete.getTables() != null && !delete.getTables().isEmpty()) {
      // DELETE t1, t2 FROM t1 JOIN t2 ...: the named tables are aliases of the FROM list.
      walkFrom(delete.getTable(), scope);
      walkJoins(delete.getJoins(), scope);
      target = resolveTarget(delete.getTables().get(0));
    } else {
      target = addTable(delete.getTable(), scope);
      if (delete.getUsingList() != null) {
        for (Table t : delete.getUsingList()) {
          addTable(t, scope);
        }
      }
      walkJoins(delete.getJoins(), scope);
    }
    where(delete.getWhere(), scope);
    return build(StatementType.DELETE, target, List.of(), List.of(), false, Map.of(), SelectShape.NONE,
        delete.getLimit() != null || delete.getOrderByElements() != null);
  }

  private RouteTemplate build(StatementType type, int target, List<String> columns, List<List<ValueSource>> rows,
      boolean fromSelect, Map<String, ValueSource> assignments, SelectShape shape, boolean writeLimit) {
    int[] parents = scopeParents.stream().mapToInt(Integer::intValue).toArray();
    RouteTemplate t = new RouteTemplate(type, maxParam, List.copyOf(tables), parents, List.copyOf(keys), List.copyOf(links),
        target, List.copyOf(columns), List.copyOf(rows), fromSelect, assignments, shape, writeLimit, hints, null, null);
    return sourceColumns.isEmpty() ? t : t.withInsertSelectColumns(sourceColumns);
  }

  /**
   * Walks an INSERT's SELECT; per select item of a plain SELECT, the column it shows as is (null for
   * any other item), so the router can tell a key copied unchanged from a source key.
   */
  private List<ColumnRef> sourceColumns(Select select, int scope) {
    walkSelect(select, scope);
    List<ColumnRef> out = new ArrayList<>();
    if (select instanceof PlainSelect plain && plain.getWithItemsList() == null) {
      for (SelectItem<?> item : plain.getSelectItems()) {
        out.add(item.getExpression() instanceof Column c ? ref(c, scope) : null);
      }
    }
    return out;
  }

  // ---- SELECT structure -------------------------------------------------------------------------

  private void walkSelect(Select select, int scope) {
    if (select.getWithItemsList() != null) {
      for (WithItem<?> with : select.getWithItemsList()) {
        // A CTE is a named subquery: its body is walked once, and its name is no table.
        cteNames.add(unquote(with.getAliasName()));
        if (with.getSelect() != null) {
          nestedNeedsMerge |= mergeSensitive(with.getSelect());
          walkSelect(with.getSelect(), rowScope(scope));
        }
      }
    }
    if (select instanceof PlainSelect plain) {
      walkPlain(plain, scope);
    } else if (select instanceof SetOperationList union) {
      boolean top = scope == 0;
      for (int i = 0; i < union.getSelects().size(); i++) {
        if (top) {
          branch = i; // top-level UNION branches route independently
        }
        nestedNeedsMerge |= mergeSensitive(union.getSelects().get(i));
        int before = tables.size();
        walkSelect(union.getSelects().get(i), rowScope(scope));
        nestedNeedsMerge |= top && tables.size() == before; // no table: it would run on every shard the others need
      }
    } else if (select instanceof TableStatement table) {
      addTable(table.getTable(), scope);
    } else if (select instanceof ParenthesedSelect parenthesed) {
      walkSelect(parenthesed.getSelect(), scope);
    } else if (select instanceof Values values) {
      scan(values.getExpressions(), scope);
    }
    if (select.getOrderByElements() != null) {
      for (OrderByElement o : select.getOrderByElements()) {
        scan(o.getExpression(), scope);
      }
    }
    if (select.getLimit() != null) {
      scan(select.getLimit().getRowCount(), scope);
      scan(select.getLimit().getOffset(), scope);
    }
    if (select.getOffset() != null) {
      scan(select.getOffset().getOffset(), scope); // LIMIT ? OFFSET ?: the offset is its own clause
    }
    if (select.getFetch() != null) {
      scan(select.getFetch().getExpression(), scope);
    }
  }

  private void walkPlain(PlainSelect plain, int scope) {
    if (plain.getFromItem() != null) {
      walkFrom(plain.getFromItem(), scope);
    }
    walkJoins(plain.getJoins(), scope);
    for (SelectItem<?> item : plain.getSelectItems()) {
      scan(item.getExpression(), scope);
    }
    where(plain.getWhere(), scope);
    scan(plain.getHaving(), scope);
  }

  private void walkFrom(FromItem item, int scope) {
    if (item instanceof Table table) {
      addTable(table, scope);
    } else if (item instanceof ParenthesedSelect sub) {
      // A derived table computes per shard; a concatenation is wrong if it aggregates or limits,
      // unless it groups by a shard key (each group on one shard), which routing decides.
      int inner = rowScope(scope);
      if (mergeSensitive(sub.getSelect())) {
        List<ColumnRef> groups = keyGroupCandidates(sub.getSelect(), inner);
        if (groups.isEmpty()) {
          nestedNeedsMerge = true;
        } else {
          keyGrouped.add(new SelectShape.KeyGrouped(inner, groups));
        }
      }
      walkSelect(sub.getSelect(), inner);
    } else if (item instanceof ParenthesedFromItem nested) {
      walkFrom(nested.getFromItem(), scope);
      walkJoins(nested.getJoins(), scope);
    }
  }

  @SuppressWarnings("deprecation") // Join.getRightItem: its replacement getFromItem is the same field
  private void walkJoins(List<Join> joins, int scope) {
    if (joins == null) {
      return;
    }
    int scopeStart = tables.size();
    for (Join join : joins) {
      int before = tables.size();
      walkFrom(join.getRightItem(), scope);
      if (join.isLeft() || join.isFull()) {
        markNullSupplying(before, tables.size());
      }
      if (join.isRight() || join.isFull()) {
        markNullSupplying(Math.max(0, scopeStart - 1), before);
      }
      if (join.getOnExpressions() != null) {
        for (Expression on : join.getOnExpressions()) {
          where(on, scope);
        }
      }
      if (join.getUsingColumns() != null && join.getFromItem() instanceof Table right) {
        // USING (k): the right table's k equals k of each table joined before it in this scope.
        for (Column c : join.getUsingColumns()) {
          String name = columnName(c);
          for (int i = 0; i < before; i++) {
            TableRef left = tables.get(i);
            if (left.scope() == scope) {
              links.add(new ColumnLink(new ColumnRef(scope, left.alias() != null ? left.alias() : left.name(), name),
                  new ColumnRef(scope, right.getAlias() != null ? unquote(right.getAlias().getName()) : qualifier(right), name)));
            }
          }
        }
      }
    }
  }

  private void markNullSupplying(int from, int to) {
    for (int i = from; i < to; i++) {
      tables.set(i, tables.get(i).outerInner());
    }
  }

  private int addTable(Table table, int scope) {
    String name = unquote(table.getName());
    if (table.getSchemaName() == null && cteNames.contains(name)) {
      return -1;
    }
    String alias = table.getAlias() == null ? null : unquote(table.getAlias().getName());
    tables.add(new TableRef(name, alias, scope, branch));
    return tables.size() - 1;
  }

  private int resolveTarget(Table named) {
    String q = unquote(named.getName());
    for (int i = 0; i < tables.size(); i++) {
      if (tables.get(i).answersTo(q)) {
        return i;
      }
    }
    return tables.isEmpty() ? -1 : 0;
  }

  private int newScope(int parent) {
    scopeParents.add(parent);
    return scopeParents.size() - 1;
  }

  /** A new scope whose rows reach the result when its parent's do (derived table, UNION branch, CTE). */
  private int rowScope(int parent) {
    int scope = newScope(parent);
    if (rowScopes.contains(parent)) {
      rowScopes.add(scope);
    }
    return scope;
  }

  // ---- predicates -------------------------------------------------------------------------------

  /** Records the conjuncts of a WHERE/ON and scans the whole expression for subqueries and params. */
  private void where(Expression e, int scope) {
    if (e == null) {
      return;
    }
    conjuncts(e, scope);
    scan(e, scope);
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
      Expression l = eq.getLeftExpression();
      Expression r = eq.getRightExpression();
      if (l instanceof Column lc && r instanceof Column rc) {
        links.add(new ColumnLink(ref(lc, scope), ref(rc, scope)));
      } else if (l instanceof Column lc) {
        keyPredicate(lc, List.of(r), scope);
      } else if (r instanceof Column rc) {
        keyPredicate(rc, List.of(l), scope);
      }
    } else if (e instanceof InExpression in && !in.isNot() && in.getLeftExpression() instanceof Column c
        && in.getRightExpression() instanceof ExpressionList<?> list) {
      keyPredicate(c, list, scope);
    } else if (e instanceof InExpression in && !in.isNot() && in.getLeftExpression() instanceof Column c
        && in.getRightExpression() instanceof ParenthesedSelect sub && sub.getSelect() instanceof PlainSelect inner
        && inner.getSelectItems().size() == 1 && inner.getSelectItems().get(0).getExpression() instanceof Column ic) {
      // col IN (SELECT col2 FROM ...): a semi-join, co-located when both columns are keys of one key space.
      int subScope = newScope(scope);
      walked.add(sub);
      walkSelect(sub.getSelect(), subScope);
      links.add(new ColumnLink(ref(c, scope), ref(ic, subScope)));
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
    keys.add(new KeyPredicate(ref(column, scope), sources));
  }

  private ColumnRef ref(Column c, int scope) {
    return new ColumnRef(scope, c.getTable() == null || c.getTable().getName() == null ? null : qualifier(c.getTable()),
        columnName(c));
  }

  private ValueSource value(Expression e) {
    if (e instanceof JdbcParameter p) {
      int index = p.getIndex() - 1;
      maxParam = Math.max(maxParam, index + 1);
      return new ValueSource.Param(index);
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
    scan(e, -1);
    return new ValueSource.Opaque(e == null ? "" : e.toString());
  }

  private List<List<ValueSource>> rows(Values values) {
    ExpressionList<?> list = values.getExpressions();
    List<List<ValueSource>> rows = new ArrayList<>();
    boolean multi = !(list instanceof ParenthesedExpressionList<?>)
        && list.stream().allMatch(x -> x instanceof ParenthesedExpressionList<?>);
    if (multi) {
      for (Expression row : list) {
        rows.add(rowValues((ExpressionList<?>) row));
      }
    } else {
      rows.add(rowValues(list));
    }
    return rows;
  }

  private List<ValueSource> rowValues(ExpressionList<?> row) {
    List<ValueSource> out = new ArrayList<>(row.size());
    for (Expression e : row) {
      out.add(value(e));
    }
    return out;
  }

  private Map<String, ValueSource> assignments(List<UpdateSet> sets, int scope) {
    if (sets == null) {
      return Map.of();
    }
    Map<String, ValueSource> out = new LinkedHashMap<>();
    for (UpdateSet set : sets) {
      for (int i = 0; i < set.getColumns().size(); i++) {
        Expression v = i < set.getValues().size() ? set.getValues().get(i) : null;
        out.put(columnName(set.getColumns().get(i)), v == null ? new ValueSource.Opaque("") : value(v));
        scan(v, scope);
      }
    }
    return out;
  }

  // ---- scanning expressions for subqueries and parameters -----------------------------------------

  private void scan(Expression e, int scope) {
    if (e == null) {
      return;
    }
    e.accept(new ExpressionVisitorAdapter<Void>() {
      @Override
      public <S> Void visit(ParenthesedSelect sub, S context) {
        if (walked.add(sub)) {
          walkSelect(sub.getSelect(), newScope(Math.max(scope, 0)));
        }
        return null;
      }

      @Override
      public <S> Void visit(Select sub, S context) {
        if (walked.add(sub)) {
          walkSelect(sub instanceof ParenthesedSelect p ? p.getSelect() : sub, newScope(Math.max(scope, 0)));
        }
        return null;
      }

      @Override
      public <S> Void visit(JdbcParameter p, S context) {
        maxParam = Math.max(maxParam, p.getIndex());
        return null;
      }
    }, null);
  }

  private static SelectShape shape(Select select) {
    if (select instanceof ParenthesedSelect p) {
      return shape(p.getSelect());
    }
    boolean order = select.getOrderByElements() != null && !select.getOrderByElements().isEmpty();
    boolean limit = select.getLimit() != null || select.getOffset() != null || select.getFetch() != null;
    boolean locking = select.getForMode() != null;
    if (select instanceof SetOperationList union) {
      // DISTINCT de-duplicates across branches; a branch without FROM would run on every shard the others need
      boolean combine = union.getOperations().stream().anyMatch(op -> !op.isAll())
          || union.getSelects().stream().anyMatch(TemplateBuilder::fromless);
      return new SelectShape(order, limit, false, false, false, combine, locking);
    }
    if (!(select instanceof PlainSelect plain)) {
      return new SelectShape(order, limit, false, false, false, false, locking);
    }
    boolean[] aggregate = {false};
    for (SelectItem<?> item : plain.getSelectItems()) {
      if (item.getExpression() != null) {
        item.getExpression().accept(new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Function f, S context) {
            if (AGGREGATES.contains(f.getName().toUpperCase(Locale.ROOT))) {
              aggregate[0] = true;
            }
            return super.visit(f, context);
          }

          @Override
          public <S> Void visit(AnalyticExpression window, S context) {
            aggregate[0] = true;
            return null;
          }

          @Override
          public <S> Void visit(ParenthesedSelect sub, S context) {
            return null;
          }
        }, null);
      }
    }
    // HAVING with an aggregate makes the whole table one group even without GROUP BY or aggregate columns
    boolean aggregates = aggregate[0] || MergeRewriter.isAggregate(plain.getHaving());
    return new SelectShape(order, limit, aggregates, plain.getGroupBy() != null, plain.getDistinct() != null, false,
        locking);
  }

  private static boolean fromless(Select select) {
    Select s = select instanceof ParenthesedSelect p ? p.getSelect() : select;
    return s instanceof Values || s instanceof PlainSelect plain && plain.getFromItem() == null;
  }

  /**
   * The GROUP BY columns of a derived SELECT that groups without LIMIT, DISTINCT, ROLLUP or window
   * functions (any of which would still need a merge); empty when it is no candidate.
   */
  private static List<ColumnRef> keyGroupCandidates(Select select, int scope) {
    if (!(select instanceof PlainSelect plain) || plain.getGroupBy() == null || plain.getGroupBy().isMysqlWithRollup()
        || plain.getDistinct() != null || plain.getLimit() != null || plain.getOffset() != null || plain.getFetch() != null
        || plain.getWithItemsList() != null) {
      return List.of();
    }
    for (SelectItem<?> item : plain.getSelectItems()) {
      if (MergeRewriter.hasWindow(item.getExpression())) {
        return List.of();
      }
    }
    List<ColumnRef> out = new ArrayList<>();
    for (Expression g : plain.getGroupBy().getGroupByExpressionList()) {
      if (g instanceof Column c) {
        out.add(new ColumnRef(scope, c.getTable() == null || c.getTable().getName() == null ? null : qualifier(c.getTable()),
            columnName(c)));
      }
    }
    return out;
  }

  /** Whether a nested SELECT computes something per shard that a concatenation would get wrong. */
  private static boolean mergeSensitive(Select select) {
    SelectShape shape = shape(select);
    boolean having = select instanceof PlainSelect plain && plain.getHaving() != null;
    return shape.aggregates() || shape.groupBy() || shape.distinct() || shape.limit() || shape.union() || having;
  }

  // ---- names ----------------------------------------------------------------------------------------

  private static List<String> names(ExpressionList<Column> columns) {
    List<String> out = new ArrayList<>();
    if (columns != null) {
      for (Column c : columns) {
        out.add(columnName(c));
      }
    }
    return out;
  }

  private static String columnName(Column c) {
    return unquote(c.getColumnName());
  }

  private static String qualifier(Table t) {
    return unquote(t.getName());
  }

  static String unquote(String name) {
    if (name == null) {
      return null;
    }
    String s = name;
    if (s.length() > 1 && (s.charAt(0) == '`' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
      s = s.substring(1, s.length() - 1);
    }
    return s.toLowerCase(Locale.ROOT);
  }
}
