package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * One branch of a UNION across shards, as the combining statement reads it ({@link UnionSplit}):
 * each select item is a literal (kept in the combining text as written), a value of known type
 * carried as a typed JSON_TABLE column (a column: its table column's type; COUNT: BIGINT; MIN/MAX of
 * a column: the column's), or, in a branch that neither groups nor de-duplicates, an expression
 * computed again by the combining shard over the columns it reads, which the branch statement
 * returns as extra columns ({@code __shx_rK}). Anything else is refused by name.
 */
final class UnionBranch {
  private static final String COUNT_TYPE = "bigint(21)";

  private final String sql;
  private final JoinSplitter.Catalog catalog;
  private final PlainSelect select;
  private final int b;
  private final int items;
  private final Map<String, String> tables;
  private final List<String> outerItems = new ArrayList<>();
  private final List<String> declared = new ArrayList<>();
  /** Per item: its type when carried as it is ("" for a literal or a computed expression). */
  private final List<String> types = new ArrayList<>();
  /** Columns read by computed expressions: "qualifier.name" -> extra column number. */
  private final Map<String, Integer> raw = new LinkedHashMap<>();
  /** Each column node a computed expression reads, with the extra column it reads it from. */
  @SuppressWarnings("IdentityHashMapUsage") // column nodes by identity: the same name read twice is two nodes
  private final Map<Column, Integer> rewritten = new java.util.IdentityHashMap<>();
  private final List<Integer> computed = new ArrayList<>();

  /** Analyses the branch; appends to {@code select} the extra columns its computed expressions read. */
  UnionBranch(String sql, JoinSplitter.Catalog catalog, PlainSelect select, int b) throws SQLException {
    this.sql = sql;
    this.catalog = catalog;
    this.select = select;
    this.b = b;
    this.items = select.getSelectItems().size();
    this.tables = tables(select);
    declared.add("__shx_n FOR ORDINALITY"); // a JSON_TABLE needs a column even when the branch carries only literals
    for (int i = 0; i < items; i++) {
      item(i, select.getSelectItems().get(i));
    }
  }

  /** The columns the branch statement returns (its items, then the extra ones). */
  int columns() {
    return items + raw.size();
  }

  List<String> types() {
    return types;
  }

  /** {@code SELECT <items> FROM JSON_TABLE(?json, ...) AS __shx_u<b>}; call after the branch statement was printed. */
  String outer(int jsonMarker) {
    for (Map.Entry<Column, Integer> c : rewritten.entrySet()) {
      c.getKey().setTable(new Table("__shx_u" + b));
      c.getKey().setColumnName("r" + c.getValue());
    }
    for (int i : computed) {
      SelectItem<?> item = select.getSelectItems().get(i);
      outerItems.set(i, item.getExpression() + " AS " + outerItems.get(i));
    }
    return "SELECT " + String.join(", ", outerItems) + " FROM JSON_TABLE(?" + jsonMarker + ", '$[*]' COLUMNS ("
        + String.join(", ", declared) + ")) AS __shx_u" + b;
  }

  private void item(int i, SelectItem<?> item) throws SQLException {
    Expression e = item.getExpression();
    String alias = item.getAlias() == null ? null : item.getAlias().getName();
    if (literal(e)) {
      outerItems.add(e + (alias == null ? "" : " AS " + alias));
      types.add("");
      return;
    }
    String what = "column " + (i + 1) + " of branch " + (b + 1) + " (" + e + ")";
    if (e instanceof AllColumns) {
      throw UnionSplit.refused(sql, "SELECT * in branch " + (b + 1), "name the columns");
    }
    String type = e instanceof Column c ? columnType(c) : e instanceof Function f && f.getName() != null ? functionType(f)
        : e instanceof AnalyticExpression a ? windowType(a) : null;
    if (type == null && !(e instanceof Column) && rowWise()) {
      compute(i, e, alias, what);
      return;
    }
    carry(i, type, what, e instanceof Column);
    outerItems.add("__shx_u" + b + ".c" + i + " AS " + (alias != null ? alias : label(e)));
  }

  /** An item carried as it is, in a column declared with its type. */
  private void carry(int i, String type, String what, boolean column) throws SQLException {
    if (type == null) {
      throw column ? UnionSplit.refused(sql, what + ", a column Shardex cannot find in the branch's tables",
          "qualify it with its table (a column of a derived table is not typed), or route it to one shard with the key")
          : UnionSplit.refused(sql, what + ", whose exact type Shardex cannot tell",
              "select columns, literals, COUNT, MIN or MAX of a column in a branch that groups, or route it to one shard with the key");
    }
    String declaration = JsonTable.column("c" + i, type, i);
    if (declaration == null) {
      throw UnionSplit.refused(sql, what + " of type " + type + ", which JSON_TABLE cannot carry exactly",
          "select another column, or route it to one shard with the key");
    }
    declared.add(declaration);
    types.add(type.toLowerCase(Locale.ROOT));
  }

  /** An expression the combining shard computes again over the columns it reads, which the branch returns too. */
  private void compute(int i, Expression e, String alias, String what) throws SQLException {
    List<Column> read;
    try {
      read = ExpressionParts.columns(e);
    } catch (JoinSplitter.Refused r) {
      throw UnionSplit.refused(sql, what + ", an expression with a subquery", "run the subquery first, or route it to one shard");
    }
    for (Column c : read) {
      String type = columnType(c);
      String key = key(c);
      if (!raw.containsKey(key)) {
        int k = raw.size();
        String declaration = JsonTable.column("r" + k, type, items + k);
        if (declaration == null) {
          throw UnionSplit.refused(sql, what + ", which reads " + c + (type == null ? ", a column Shardex cannot find"
              : " of type " + type + ", which JSON_TABLE cannot carry exactly"), "qualify the column, or route it to one shard with the key");
        }
        raw.put(key, k);
        declared.add(declaration);
        select.getSelectItems().add(SelectItem.from(new Column(c.getTable(), c.getColumnName()), new Alias("__shx_r" + k)));
      }
      rewritten.put(c, raw.get(key));
    }
    computed.add(i);
    outerItems.add(alias != null ? alias : label(e)); // a value in it stays a ?N marker, filled into the label by the statement's values
    types.add("");
  }

  /** Whether each row of the branch is one row of its tables (no GROUP BY, aggregate, window or DISTINCT). */
  private boolean rowWise() {
    if (select.getGroupBy() != null || select.getDistinct() != null || select.getHaving() != null) {
      return false;
    }
    for (int i = 0; i < items; i++) {
      Expression e = select.getSelectItems().get(i).getExpression();
      if (Aggregates.isAggregate(e) || Aggregates.hasWindow(e)) {
        return false;
      }
    }
    return true;
  }

  private String functionType(Function f) throws SQLException {
    String name = f.getName().toUpperCase(Locale.ROOT);
    if (name.equals("COUNT")) {
      return COUNT_TYPE;
    }
    boolean minMax = name.equals("MIN") || name.equals("MAX");
    if (minMax && !f.isDistinct() && f.getParameters() != null && f.getParameters().size() == 1
        && f.getParameters().get(0) instanceof Column c) {
      return columnType(c);
    }
    return null;
  }

  /**
   * A window function's type where the server's is fixed or its column's: numbers, ranks and counts
   * BIGINT, PERCENT_RANK and CUME_DIST DOUBLE, a column's MIN, MAX, FIRST_VALUE, LAST_VALUE,
   * NTH_VALUE, LAG and LEAD (without a default, which would mix in its own type) the column's; else
   * null (refused: SUM's and AVG's precision are the server's to derive). The branch runs as a
   * statement of its own, so its windows are computed as they would be alone (per shard only when
   * partitioned by the key).
   */
  private String windowType(AnalyticExpression a) throws SQLException {
    String name = a.getName() == null ? "" : a.getName().toUpperCase(Locale.ROOT);
    switch (name) {
      case "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE", "COUNT":
        return COUNT_TYPE;
      case "PERCENT_RANK", "CUME_DIST":
        return "double";
      case "MIN", "MAX", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE", "LAG", "LEAD":
        return a.getExpression() instanceof Column c && a.getDefaultValue() == null && !a.isDistinct() ? columnType(c) : null;
      default:
        return null;
    }
  }

  /** The catalog type of a column of one of the branch's tables, or null when it cannot be placed. */
  private String columnType(Column c) throws SQLException {
    String name = JoinSplitter.unquote(c.getColumnName());
    if (c.getTable() != null && c.getTable().getName() != null) {
      String table = tables.get(JoinSplitter.unquote(c.getTable().getName()));
      return table == null ? null : catalog.type(table, name);
    }
    String found = null;
    for (String table : tables.values()) {
      if (catalog.columns(table).contains(name)) {
        if (found != null) {
          return null; // ambiguous: the shard refuses it anyway
        }
        found = table;
      }
    }
    return found == null ? null : catalog.type(found, name);
  }

  private static String key(Column c) {
    return (c.getTable() == null || c.getTable().getName() == null ? "" : JoinSplitter.unquote(c.getTable().getName()))
        + "." + JoinSplitter.unquote(c.getColumnName());
  }

  /** Alias (or name) -> table of the branch's FROM; derived tables are left out (their columns cannot be typed). */
  private static Map<String, String> tables(PlainSelect select) {
    Map<String, String> out = new LinkedHashMap<>();
    List<Object> from = new ArrayList<>();
    from.add(select.getFromItem());
    for (Join j : select.getJoins() == null ? List.<Join>of() : select.getJoins()) {
      from.add(j.getFromItem());
    }
    for (Object item : from) {
      if (item instanceof Table t) {
        String table = JoinSplitter.unquote(t.getName());
        out.put(t.getAlias() != null ? JoinSplitter.unquote(t.getAlias().getName()) : table, table);
      }
    }
    return out;
  }

  /** A value written in the text (the statement's literals are {@code ?} markers by now): kept in the combining text. */
  private static boolean literal(Expression e) {
    if (e instanceof SignedExpression s) {
      return literal(s.getExpression());
    }
    return e instanceof NullValue || e instanceof JdbcParameter || e instanceof StringValue || e instanceof LongValue
        || e instanceof DoubleValue;
  }

  /** The label one server gives an item without an alias: a column's name as written, else the item's text. */
  private static String label(Expression e) {
    String label = e instanceof Column c ? c.getColumnName().replace("`", "") : e.toString();
    return "`" + label.replace("`", "``") + "`";
  }
}
