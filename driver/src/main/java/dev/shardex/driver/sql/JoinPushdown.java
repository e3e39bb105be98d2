package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Cuts a join that no lookup join answers (join values that are text, a non-equality or OR in
 * ON, WHERE terms mixing the sides, RIGHT JOIN) into one read per table and one statement over
 * their rows. Each <b>side</b> reads the columns the statement uses from one table, with the WHERE
 * terms that name that table alone (none for a table an outer join may NULL-pad); the
 * <b>outer</b> statement is the statement itself, each table replaced by its rows as a typed
 * {@code JSON_TABLE} (the table column's type and collation), so one server pairs, filters,
 * groups and orders the rows by its own rules.
 */
public final class JoinPushdown {
  /** One table's read: its text (plain markers binding the statement's {@code params}) and how many columns it returns. */
  public record Side(String table, String sql, int[] params, int columns) {}

  /**
   * The cut: the sides in FROM order; {@code outer} binding {@code outerParams}, where index
   * {@code firstJson + k} stands for side k's rows; per select item, the side ({@code source}, -1
   * for a computed item) and column there ({@code plain}) it shows as is.
   */
  public record Plan(List<Side> sides, String outer, int[] outerParams, int firstJson, int[] source, int[] plain,
      boolean[] padded) {}

  /** Why a statement is not cut. */
  public static final class Refused extends Exception {
    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  private static final String PLACEHOLDER = "__shx_side_";

  private final JoinSplitter.Catalog catalog;
  private final Map<String, String> tables = new LinkedHashMap<>(); // alias -> table, in FROM order
  private final Map<String, List<String>> read = new LinkedHashMap<>(); // alias -> columns it gives
  private final List<String> nullable = new ArrayList<>(); // aliases an outer join may NULL-pad

  private JoinPushdown(JoinSplitter.Catalog catalog) {
    this.catalog = catalog;
  }

  /** The cut of a SELECT with joins, or a refusal naming what it cannot carry. */
  public static Plan of(String sql, JoinSplitter.Catalog catalog) throws Refused, SQLException {
    int params = SqlLexer.countParameters(sql);
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect select) || select.getJoins() == null || select.getWithItemsList() != null) {
      throw new Refused("only a plain SELECT with joins is given to one server");
    }
    if (select.getForMode() != null || select.getIntoTables() != null) {
      throw new Refused("a locking read or INTO across shards");
    }
    return new JoinPushdown(catalog).cut(select, params);
  }

  private Plan cut(PlainSelect select, int params) throws Refused, SQLException {
    addTable(select.getFromItem());
    for (Join j : select.getJoins()) {
      if (j.isNatural() || (j.getUsingColumns() != null && !j.getUsingColumns().isEmpty())) {
        throw new Refused("NATURAL or USING joins across shards");
      }
      if (j.isRight()) {
        nullable.addAll(tables.keySet()); // every table before a RIGHT JOIN may be NULL-padded
      }
      String alias = addTable(j.getFromItem());
      if (j.isLeft() || j.isFull()) {
        nullable.add(alias);
      }
    }
    List<String> selectAliases = new ArrayList<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      selectAliases.add(item.getAlias() == null ? null : JoinSplitter.unquote(item.getAlias().getName()));
      readItem(item.getExpression());
    }
    readAll(select.getWhere(), null);
    for (Join j : select.getJoins()) {
      for (Expression on : j.getOnExpressions()) {
        readAll(on, null);
      }
    }
    if (select.getGroupBy() != null) {
      for (Object e : select.getGroupBy().getGroupByExpressionList()) {
        readAll((Expression) e, selectAliases);
      }
    }
    readAll(select.getHaving(), selectAliases);
    if (select.getOrderByElements() != null) {
      for (OrderByElement o : select.getOrderByElements()) {
        readAll(o.getExpression(), selectAliases);
      }
    }
    requireGrouped(select);
    List<Side> sides = sides(select);
    int[][] shown = shown(select);
    labelItems(select);
    return outer(select, params, sides, shown);
  }

  /**
   * With GROUP BY, a column shown outside an aggregate takes any row's value of its group on a
   * server without ONLY_FULL_GROUP_BY: only columns that are grouped are shown, so the answer is
   * one server's whatever row it picks.
   */
  private void requireGrouped(PlainSelect select) throws Refused, SQLException {
    if (select.getGroupBy() == null) {
      return;
    }
    List<SelectItem<?>> items = select.getSelectItems();
    List<String> grouped = new ArrayList<>();
    for (Object e : select.getGroupBy().getGroupByExpressionList()) {
      // a position names its select item (GROUP BY 1), as MySQL reads it
      Object named = e instanceof LongValue n && n.getValue() >= 1 && n.getValue() <= items.size()
          ? items.get((int) n.getValue() - 1).getExpression() : e;
      grouped.add(named.toString().replace("`", "").toLowerCase(java.util.Locale.ROOT));
    }
    for (SelectItem<?> item : items) {
      Expression e = item.getExpression();
      if (e instanceof AllColumns) {
        throw new Refused("SELECT * with GROUP BY across shards");
      }
      if (e instanceof Column c && !groupedByAlias(item, grouped) && !grouped.contains(c.toString().replace("`", "").toLowerCase(java.util.Locale.ROOT))
          && !grouped.contains(JoinSplitter.unquote(c.getColumnName()))) {
        throw new Refused("column " + c + " is shown but not grouped");
      }
    }
  }

  /**
   * Whether the item is grouped by its alias: GROUP BY finds a table's column of that name first, as
   * MySQL resolves it, so only an alias no table of the statement has as a column counts.
   */
  private boolean groupedByAlias(SelectItem<?> item, List<String> grouped) throws SQLException {
    if (item.getAlias() == null) {
      return false;
    }
    String alias = JoinSplitter.unquote(item.getAlias().getName()).toLowerCase(java.util.Locale.ROOT);
    if (!grouped.contains(alias)) {
      return false;
    }
    for (String table : tables.values()) {
      if (catalog.columns(table).contains(alias)) {
        return false;
      }
    }
    return true;
  }

  private String addTable(Object item) throws Refused {
    if (!(item instanceof Table t)) {
      throw new Refused("a derived table or table function in FROM");
    }
    String table = JoinSplitter.unquote(t.getName());
    String alias = t.getAlias() != null ? JoinSplitter.unquote(t.getAlias().getName()) : table;
    if (tables.put(alias, table) != null) {
      throw new Refused("table " + alias + " named twice");
    }
    read.put(alias, new ArrayList<>());
    return alias;
  }

  private void readItem(Expression e) throws Refused, SQLException {
    if (e instanceof AllColumns && !(e instanceof AllTableColumns)) {
      for (String alias : tables.keySet()) {
        readWhole(alias);
      }
    } else if (e instanceof AllTableColumns all) {
      String alias = JoinSplitter.unquote(all.getTable().getName());
      if (!tables.containsKey(alias)) {
        throw new Refused(alias + ".* names no table of the statement");
      }
      readWhole(alias);
    } else {
      readAll(e, null);
    }
  }

  /** Every column of the table, in its own order, so that {@code *} expands over its rows as over the table. */
  private void readWhole(String alias) throws Refused, SQLException {
    List<String> all = catalog.columns(tables.get(alias));
    if (all.isEmpty()) {
      throw new Refused("the columns of " + tables.get(alias) + " are unknown");
    }
    List<String> cols = read.get(alias);
    List<String> rest = new ArrayList<>(cols);
    rest.removeAll(all);
    cols.clear();
    cols.addAll(all);
    cols.addAll(rest);
  }

  private void readAll(Expression e, List<String> selectAliases) throws Refused, SQLException {
    if (e == null) {
      return;
    }
    List<Column> columns;
    try {
      columns = ExpressionParts.columns(e);
    } catch (JoinSplitter.Refused r) {
      throw new Refused("a subquery in a join given to one server");
    }
    for (Column c : columns) {
      boolean alias = c.getTable() == null && selectAliases != null
          && selectAliases.contains(JoinSplitter.unquote(c.getColumnName()));
      if (!alias) {
        String[] at = place(c);
        if (!read.get(at[0]).contains(at[1])) {
          read.get(at[0]).add(at[1]);
        }
      }
    }
  }

  /** {alias, column} of a reference: its qualifier, or the one table that has the column. */
  private String[] place(Column c) throws Refused, SQLException {
    String name = JoinSplitter.unquote(c.getColumnName());
    if (c.getTable() != null && c.getTable().getName() != null) {
      String q = JoinSplitter.unquote(c.getTable().getName());
      if (!tables.containsKey(q)) {
        throw new Refused("column qualifier " + q + " names no table of the statement");
      }
      return new String[] {q, name};
    }
    String found = null;
    for (Map.Entry<String, String> t : tables.entrySet()) {
      if (catalog.columns(t.getValue()).contains(name)) {
        if (found != null) {
          throw new Refused("column " + name + " is in more than one table");
        }
        found = t.getKey();
      }
    }
    if (found == null) {
      throw new Refused("column " + name + " cannot be placed in one table (qualify it with its table)");
    }
    return new String[] {found, name};
  }

  /** Each table's read: its columns, and the WHERE terms that name it alone (none if it may be NULL-padded). */
  private List<Side> sides(PlainSelect select) throws Refused, SQLException {
    List<Side> sides = new ArrayList<>();
    for (Map.Entry<String, String> t : tables.entrySet()) {
      List<String> cols = read.get(t.getKey());
      if (cols.isEmpty()) {
        throw new Refused("table " + t.getKey() + " gives no column to the statement");
      }
      PlainSelect s = new PlainSelect();
      Table from = new Table(t.getValue());
      from.setAlias(new Alias(t.getKey(), false));
      s.setFromItem(from);
      List<SelectItem<?>> items = new ArrayList<>();
      for (String c : cols) {
        items.add(SelectItem.from(new Column(new Table(t.getKey()), "`" + c + "`")));
      }
      s.setSelectItems(items);
      if (!nullable.contains(t.getKey())) {
        s.setWhere(alone(select.getWhere(), t.getKey()));
      }
      NumberedParameters.Text text = NumberedParameters.print(s);
      sides.add(new Side(t.getValue(), text.sql(), text.order(), cols.size()));
    }
    return sides;
  }

  /** The AND of the WHERE terms that read columns of {@code alias} only, or null. */
  private Expression alone(Expression where, String alias) throws SQLException {
    Expression out = null;
    for (Expression term : ExpressionParts.conjuncts(where)) {
      try {
        List<Column> columns = ExpressionParts.columns(term);
        boolean mine = !columns.isEmpty();
        for (Column c : columns) {
          mine &= place(c)[0].equals(alias);
        }
        if (mine) {
          out = out == null ? term : new AndExpression(out, term);
        }
      } catch (JoinSplitter.Refused | Refused e) {
        // a term with a subquery or an unplaced column stays with the outer statement alone
      }
    }
    return out;
  }

  /** Per select item: {side, column} it shows as is, or {-1, -1}; {@code *} items expand to their columns. */
  private int[][] shown(PlainSelect select) throws Refused, SQLException {
    List<int[]> out = new ArrayList<>();
    List<String> aliases = new ArrayList<>(tables.keySet());
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression e = item.getExpression();
      if (e instanceof AllTableColumns all) {
        expand(out, aliases.indexOf(JoinSplitter.unquote(all.getTable().getName())));
      } else if (e instanceof AllColumns) {
        for (int k = 0; k < aliases.size(); k++) {
          expand(out, k);
        }
      } else if (e instanceof Column c) {
        String[] at = place(c);
        out.add(new int[] {aliases.indexOf(at[0]), read.get(at[0]).indexOf(at[1])});
      } else {
        out.add(new int[] {-1, -1});
      }
    }
    return out.toArray(new int[0][]);
  }

  private void expand(List<int[]> out, int side) throws SQLException {
    String alias = new ArrayList<>(tables.keySet()).get(side);
    for (int i = 0; i < catalog.columns(tables.get(alias)).size(); i++) {
      out.add(new int[] {side, i});
    }
  }

  /** Gives each unnamed computed item the label one server would print (the outer text is printed anew). */
  private static void labelItems(PlainSelect select) {
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression e = item.getExpression();
      if (item.getAlias() == null && !(e instanceof Column) && !(e instanceof AllColumns)) {
        item.setAlias(new Alias("`" + e.toString().replace("`", "``") + "`"));
      }
    }
  }

  /** The statement with each table replaced by its rows as a typed JSON_TABLE under the table's alias. */
  private Plan outer(PlainSelect select, int params, List<Side> sides, int[][] shown) throws Refused, SQLException {
    List<String> aliases = new ArrayList<>(tables.keySet());
    select.setFromItem(new Table(PLACEHOLDER + 0));
    for (int k = 1; k < aliases.size(); k++) {
      select.getJoins().get(k - 1).setFromItem(new Table(PLACEHOLDER + k));
    }
    NumberedParameters.Text printed = NumberedParameters.print(select);
    String text = printed.sql();
    StringBuilder sql = new StringBuilder();
    List<Integer> order = new ArrayList<>();
    int from = 0;
    int marker = 0;
    for (int k = 0; k < aliases.size(); k++) {
      int at = text.indexOf(PLACEHOLDER + k, from);
      int before = SqlLexer.countParameters(text.substring(from, at));
      for (int i = 0; i < before; i++) {
        order.add(printed.order()[marker++]);
      }
      sql.append(text, from, at).append("JSON_TABLE(?, '$[*]' COLUMNS (").append(declarations(aliases.get(k)))
          .append(")) AS `").append(aliases.get(k)).append('`');
      order.add(params + k);
      from = at + (PLACEHOLDER + k).length();
    }
    sql.append(text.substring(from));
    while (marker < printed.order().length) {
      order.add(printed.order()[marker++]);
    }
    int[] source = new int[shown.length];
    int[] plain = new int[shown.length];
    for (int i = 0; i < shown.length; i++) {
      source[i] = shown[i][0];
      plain[i] = shown[i][1];
    }
    boolean[] padded = new boolean[aliases.size()];
    for (int k = 0; k < padded.length; k++) {
      padded[k] = nullable.contains(aliases.get(k));
    }
    return new Plan(sides, sql.toString(), order.stream().mapToInt(Integer::intValue).toArray(), params, source, plain,
        padded);
  }

  private String declarations(String alias) throws Refused, SQLException {
    List<String> out = new ArrayList<>();
    List<String> cols = read.get(alias);
    for (int i = 0; i < cols.size(); i++) {
      try {
        out.add(JoinAggregates.jsonColumn("`" + cols.get(i) + "`", alias + "." + cols.get(i),
            catalog.type(tables.get(alias), cols.get(i)), i));
      } catch (JoinAggregates.Refused e) {
        throw new Refused(e.getMessage());
      }
    }
    return String.join(", ", out);
  }
}
