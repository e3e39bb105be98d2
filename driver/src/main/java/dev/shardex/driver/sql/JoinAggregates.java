package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Cuts a SELECT that aggregates, groups or de-duplicates the rows of a cross-shard join into two
 * statements: the <b>inner</b> one, the join itself reading only the columns the rest needs (a lookup
 * join answers it), and the <b>outer</b> one, the statement's own select list, GROUP BY, HAVING,
 * ORDER BY and LIMIT over those joined rows, given back to one shard as a typed
 * {@code JSON_TABLE} (each column declared with its table column's type and collation). So one
 * server groups, folds, compares and types the values by its own rules: GROUP_CONCAT, COUNT(DISTINCT),
 * aggregates inside expressions and HAVING come out as one server gives them.
 */
public final class JoinAggregates {
  /** Where the derived table stands in the outer text until its JSON_TABLE is written in. */
  private static final String PLACEHOLDER = "__shx_joined_rows__";
  /** The derived table's alias in the outer statement. */
  public static final String ALIAS = "__shx_j";

  /**
   * The cut: {@code inner} (plain markers, binding the statement's parameters {@code innerParams});
   * {@code outer} binding {@code outerParams}, where the index {@code json} stands for the joined rows;
   * {@code plain}: per select item, the joined column it shows as is (its metadata is the table
   * column's), or -1.
   */
  public record Plan(String inner, int[] innerParams, String outer, int[] outerParams, int json, int columns, int[] plain) {}

  /** Why a statement is not cut (completes "a cross-shard lookup join does not apply: ..."). */
  public static final class Refused extends Exception {
    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  private final JoinSplitter.Catalog catalog;
  private final Map<String, String> tables = new LinkedHashMap<>(); // alias or name -> table
  private final Map<String, Integer> columns = new LinkedHashMap<>(); // "alias.column" -> joined column
  private final List<String> declared = new ArrayList<>(); // JSON_TABLE column definitions

  private JoinAggregates(JoinSplitter.Catalog catalog) {
    this.catalog = catalog;
  }

  /** The cut of {@code sql} (plain {@code ?} markers), or null when it neither aggregates, groups nor de-duplicates. */
  public static Plan of(String sql, JoinSplitter.Catalog catalog) throws Refused, SQLException {
    return of(sql, catalog, false);
  }

  /**
   * The cut, where {@code routed} says the inner statement runs as any statement (routed, merged:
   * one table or tables joined on their key) rather than as a cross-shard join; the merge stage
   * asks for it for what it cannot fold from per-shard parts (GROUP_CONCAT, WITH ROLLUP, window
   * functions, aggregates inside expressions).
   */
  public static Plan of(String sql, JoinSplitter.Catalog catalog, boolean routed) throws Refused, SQLException {
    int params = SqlLexer.countParameters(sql);
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect select) || (!routed && select.getJoins() == null) || select.getWithItemsList() != null
        || !folds(select) || JoinCounts.of(select) != null) {
      return null;
    }
    if (select.getForMode() != null || select.getIntoTables() != null) {
      throw new Refused("a locking read or INTO over a cross-shard join is not answered");
    }
    return new JoinAggregates(catalog).cut(select, params);
  }

  private static boolean folds(PlainSelect s) {
    return s.getDistinct() != null || s.getGroupBy() != null || s.getHaving() != null
        || s.getSelectItems().stream().anyMatch(i -> Aggregates.isAggregate(i.getExpression()) || Aggregates.hasWindow(i.getExpression()));
  }

  private Plan cut(PlainSelect select, int params) throws Refused, SQLException {
    addTable(select.getFromItem());
    for (Join j : select.getJoins() == null ? List.<Join>of() : select.getJoins()) {
      addTable(j.getFromItem());
    }
    List<String> aliases = new ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      if (item.getExpression() instanceof AllColumns) {
        throw new Refused("SELECT * with aggregates, GROUP BY or DISTINCT over a cross-shard join");
      }
      aliases.add(item.getAlias() == null ? null : item.getAlias().getName().replace("`", "").toLowerCase(Locale.ROOT));
    }
    List<Column> refs = new ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      collect(item.getExpression(), refs, null);
    }
    if (select.getGroupBy() != null) {
      for (Object e : select.getGroupBy().getGroupByExpressionList()) {
        collect((Expression) e, refs, aliases);
      }
    }
    collect(select.getHaving(), refs, aliases);
    if (select.getOrderByElements() != null) {
      for (OrderByElement o : select.getOrderByElements()) {
        collect(o.getExpression(), refs, aliases);
      }
    }
    for (Column c : refs) {
      column(c);
    }
    if (columns.isEmpty()) {
      throw new Refused("it reads no column of the joined tables");
    }
    NumberedParameters.Text inner = inner(select);
    int[] plain = labelItems(select);
    for (Column c : refs) {
      int k = columns.get(key(c));
      c.setTable(new Table(ALIAS));
      c.setColumnName("c" + k);
    }
    select.setFromItem(placeholder());
    select.setJoins(null);
    select.setWhere(null);
    return jsonTable(select, declared, ALIAS, params, inner, plain);
  }

  /**
   * The plan whose outer statement is {@code select} with its {@link #PLACEHOLDER} table replaced by
   * the typed JSON_TABLE of the rows {@code inner} reads (columns {@code declared}), named {@code alias};
   * its marker is the parameter numbered {@code params} (after the statement's own).
   */
  static Plan jsonTable(PlainSelect select, List<String> declared, String alias, int params, NumberedParameters.Text inner,
      int[] plain) {
    NumberedParameters.Text outer = NumberedParameters.print(select);
    int at = outer.sql().indexOf(PLACEHOLDER);
    int before = SqlLexer.countParameters(outer.sql().substring(0, at));
    String sql = outer.sql().substring(0, at) + "JSON_TABLE(?, '$[*]' COLUMNS (" + String.join(", ", declared) + ")) AS "
        + alias + outer.sql().substring(at + PLACEHOLDER.length());
    int[] order = new int[outer.order().length + 1];
    System.arraycopy(outer.order(), 0, order, 0, before);
    order[before] = params;
    System.arraycopy(outer.order(), before, order, before + 1, outer.order().length - before);
    return new Plan(inner.sql(), inner.order(), sql, order, params, declared.size(), plain);
  }

  /** Stands for the JSON_TABLE in a statement until it is written in ({@link #jsonTable}). */
  static Table placeholder() {
    return new Table(PLACEHOLDER);
  }

  /** The join reading the needed columns, as {@code __shx_cK}: the statement's FROM and WHERE, nothing else. */
  private NumberedParameters.Text inner(PlainSelect select) {
    PlainSelect s = new PlainSelect();
    s.setFromItem(select.getFromItem());
    s.setJoins(select.getJoins());
    s.setWhere(select.getWhere());
    List<SelectItem<?>> items = new ArrayList<>();
    for (Map.Entry<String, Integer> c : columns.entrySet()) {
      String[] parts = c.getKey().split("\\.", 2);
      items.add(SelectItem.from(new Column(new Table(parts[0]), "`" + parts[1] + "`"), new Alias("__shx_c" + c.getValue())));
    }
    s.setSelectItems(items);
    return NumberedParameters.print(s);
  }

  /** Gives each unnamed select item the label one server would print; notes the items that show a column as is. */
  private int[] labelItems(PlainSelect select) throws Refused {
    int[] plain = new int[select.getSelectItems().size()];
    for (int i = 0; i < plain.length; i++) {
      SelectItem<?> item = select.getSelectItems().get(i);
      Expression e = item.getExpression();
      plain[i] = e instanceof Column c && columns.containsKey(key(c)) ? columns.get(key(c)) : -1;
      if (item.getAlias() == null) {
        String label = e instanceof Column c ? c.getColumnName().replace("`", "") : e.toString();
        item.setAlias(new Alias("`" + label.replace("`", "``") + "`"));
      }
    }
    return plain;
  }

  private void addTable(Object item) throws Refused {
    if (!(item instanceof Table t)) {
      throw new Refused("a derived table or table function in FROM");
    }
    String table = JoinSplitter.unquote(t.getName());
    tables.put(t.getAlias() != null ? JoinSplitter.unquote(t.getAlias().getName()) : table, table);
  }

  /** Columns of the joined tables that an expression reads; a bare name that is a select alias stays as it is. */
  private static void collect(Expression e, List<Column> out, List<String> aliases) throws Refused {
    if (e == null) {
      return;
    }
    try {
      for (Column column : ExpressionParts.columns(e)) {
        boolean alias = column.getTable() == null && aliases != null
            && aliases.contains(column.getColumnName().replace("`", "").toLowerCase(Locale.ROOT));
        if (!alias) {
          out.add(column);
        }
      }
    } catch (JoinSplitter.Refused r) {
      throw new Refused("a subquery next to aggregates over a cross-shard join");
    }
  }

  /** The joined column a reference reads, declared in the JSON_TABLE on first sight. */
  private void column(Column c) throws Refused, SQLException {
    String key = key(c);
    if (columns.containsKey(key)) {
      return;
    }
    String[] parts = key.split("\\.", 2);
    int k = columns.size();
    declared.add(jsonColumn("c" + k, key, catalog.type(tables.get(parts[0]), parts[1]), k));
    columns.put(key, k);
  }

  /**
   * A JSON_TABLE column named {@code name} reading {@code $[k]}, declared with the table column's
   * type and collation {@code type} (of {@code column}, named in the refusal of a type it cannot carry).
   */
  static String jsonColumn(String name, String column, String type, int k) throws Refused {
    String definition = declare(name, type, k);
    if (definition == null) {
      throw new Refused("column " + column + " is of type " + type + ", which the joined rows cannot carry to one shard");
    }
    return definition;
  }

  /** {@link JsonTable#column}: a JSON_TABLE column of the table column's type, or null for a type it cannot carry. */
  public static String declare(String name, String type, int k) {
    return JsonTable.column(name, type, k);
  }

  /** "alias.column" of a reference: its qualifier, or the one joined table that has the column. */
  private String key(Column c) throws Refused {
    String name = JoinSplitter.unquote(c.getColumnName());
    if (c.getTable() != null && c.getTable().getName() != null) {
      String q = JoinSplitter.unquote(c.getTable().getName());
      if (!tables.containsKey(q)) {
        throw new Refused("column qualifier " + q + " names no table of the statement");
      }
      return q + "." + name;
    }
    String found = null;
    for (Map.Entry<String, String> t : tables.entrySet()) {
      try {
        if (catalog.columns(t.getValue()).contains(name)) {
          if (found != null) {
            throw new Refused("column " + name + " is in more than one table");
          }
          found = t.getKey();
        }
      } catch (SQLException e) {
        throw new Refused("the columns of " + t.getValue() + " could not be read: " + e.getMessage());
      }
    }
    if (found == null) {
      throw new Refused("column " + name + " cannot be placed in one table (qualify it with its table)");
    }
    return found + "." + name;
  }
}
