package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.schema.Table;

/**
 * What the walk of one statement has found so far, and the scopes it has opened: every table
 * with its alias, scope and UNION branch, the key predicates and column links, the highest
 * parameter. {@link #build} seals them into a {@link RouteTemplate}.
 */
final class TemplateFacts {
  private final Hints hints;
  final List<TableRef> tables = new ArrayList<>();
  private final List<Integer> scopeParents = new ArrayList<>();
  final List<KeyPredicate> keys = new ArrayList<>();
  final List<ColumnLink> links = new ArrayList<>();
  final Set<String> cteNames = new HashSet<>();
  /** Subqueries already walked (an IN subquery is walked by its conjunct, then seen again by the scan). */
  final Set<Object> walked = Collections.newSetFromMap(new IdentityHashMap<>());
  /** Scopes whose rows reach the result: the top level, UNION branches, derived tables, CTEs. */
  final Set<Integer> rowScopes = new HashSet<>();
  /** Derived tables that aggregate with a GROUP BY: exact when it holds a shard key (decided at route time). */
  final List<SelectShape.KeyGrouped> keyGrouped = new ArrayList<>();
  /** The top-level SELECT's window functions, each by its PARTITION BY columns. */
  List<SelectShape.KeyGrouped> windows = List.of();
  /** The top-level UNION branch being walked (0 without UNION). */
  int branch;
  boolean nestedNeedsMerge;
  /** An INSERT ... SELECT's select items that are plain columns. */
  List<ColumnRef> sourceColumns = List.of();
  private int maxParam;

  TemplateFacts(Hints hints) {
    this.hints = hints;
  }

  /** Notes a parameter by its 1-based index. */
  void param(int index) {
    maxParam = Math.max(maxParam, index);
  }

  int newScope(int parent) {
    scopeParents.add(parent);
    return scopeParents.size() - 1;
  }

  /** A new scope whose rows reach the result when its parent's do (derived table, UNION branch, CTE). */
  int rowScope(int parent) {
    int scope = newScope(parent);
    if (rowScopes.contains(parent)) {
      rowScopes.add(scope);
    }
    return scope;
  }

  int addTable(Table table, int scope) {
    String name = SqlNames.unquote(table.getName());
    if (table.getSchemaName() == null && cteNames.contains(name)) {
      return -1;
    }
    String alias = table.getAlias() == null ? null : SqlNames.unquote(table.getAlias().getName());
    tables.add(new TableRef(name, alias, scope, branch));
    return tables.size() - 1;
  }

  /** The FROM-list table a multi-table DELETE names (by alias or name); the first when none answers. */
  int resolveTarget(Table named) {
    String q = SqlNames.unquote(named.getName());
    for (int i = 0; i < tables.size(); i++) {
      if (tables.get(i).answersTo(q)) {
        return i;
      }
    }
    return tables.isEmpty() ? -1 : 0;
  }

  void markNullSupplying(int from, int to) {
    for (int i = from; i < to; i++) {
      tables.set(i, tables.get(i).outerInner());
    }
  }

  RouteTemplate build(StatementType type, int target, List<String> columns, List<List<ValueSource>> rows,
      boolean fromSelect, Map<String, ValueSource> assignments, SelectShape shape, boolean writeLimit) {
    int[] parents = scopeParents.stream().mapToInt(Integer::intValue).toArray();
    RouteTemplate t = new RouteTemplate(type, maxParam, List.copyOf(tables), parents, List.copyOf(keys), List.copyOf(links),
        target, List.copyOf(columns), List.copyOf(rows), fromSelect, assignments, shape, writeLimit, hints, null, null);
    return sourceColumns.isEmpty() ? t : t.withInsertSelectColumns(sourceColumns);
  }
}
