package dev.shardex.driver.sql;

import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.LateralSubSelect;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Cuts a SELECT whose derived tables or (non-recursive) CTEs need a cross-shard merge of their own
 * into <b>parts</b>, each derived table's or CTE's SELECT as a statement of its own (routed and merged
 * as any read, fetched with LIMIT cap+1 ({@link StepLimit}): the cap+1-th row refuses it), and the <b>outer</b> statement, where each part's rows
 * stand as {@code __shx_derived_K__} until they are written in as a typed {@code JSON_TABLE}. The
 * outer statement runs on one shard as it is when every other table it reads is GLOBAL; otherwise it
 * is routed as any statement ({@code routed}), the rows standing on every shard it goes to like a
 * GLOBAL table's: so they may not be the kept side of an outer join (each shard would keep them).
 */
public final class DerivedCut {
  /** Where part K's rows stand in the outer text. */
  public static String placeholder(int k) {
    return "__shx_derived_" + k + "__";
  }

  /**
   * A derived table or CTE: its name in the statement, its SELECT binding the statement's
   * {@code params}, and the names its column list gives (null: the SELECT's labels).
   */
  public record Part(String name, String sql, int[] params, List<String> columns) {}

  /**
   * The cut: {@code outer} binds {@code outerParams}, where index {@code params + K} stands for part
   * K's rows (as JSON); {@code routed} when it reads tables other than GLOBAL ones.
   */
  public record Plan(List<Part> parts, String outer, int[] outerParams, int params, boolean routed) {}

  /** Why a statement is not cut (completes SHX1207's reason). */
  public static final class Refused extends Exception {
    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  private final long cap;
  private final List<Part> parts = new ArrayList<>();
  private final Set<String> derived = new HashSet<>(); // names of the derived tables and CTEs, lower case
  private final java.util.Map<String, Integer> ctes = new java.util.HashMap<>(); // CTE name -> its part

  private DerivedCut(long cap) {
    this.cap = cap;
  }

  /** The cut of {@code sql} (plain {@code ?} markers), or null when it has no derived table or CTE of its own. */
  public static Plan of(String sql, long cap, JoinSplitter.Catalog catalog) throws Refused, SQLException {
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect select) || select.getForMode() != null || select.getIntoTables() != null) {
      return null;
    }
    DerivedCut cut = new DerivedCut(cap);
    cut.ctes(select);
    select.setFromItem(cut.from(select.getFromItem()));
    for (Join j : select.getJoins() == null ? List.<Join>of() : select.getJoins()) {
      j.setFromItem(cut.from(j.getFromItem()));
    }
    if (cut.parts.isEmpty()) {
      return null;
    }
    cut.requireCtesInFrom(select);
    boolean routed = cut.readsOthers(select, catalog);
    if (routed) {
      cut.requireInnerKept(select);
    }
    return outer(cut.parts, select, SqlLexer.countParameters(sql), routed);
  }

  /**
   * Each CTE becomes a part; a reference to it in the statement's FROM becomes its rows' placeholder
   * (so the statement needs no WITH, which the merge stage does not take). Its column list, if any,
   * names the rows' columns.
   */
  private void ctes(PlainSelect select) throws Refused {
    if (select.getWithItemsList() == null) {
      return;
    }
    for (WithItem<?> with : select.getWithItemsList()) {
      if (with.isRecursive()) {
        throw new Refused("a recursive CTE (WITH RECURSIVE) across shards is not answered");
      }
      if (with.getSelect() == null) {
        throw new Refused("a CTE that is not a SELECT");
      }
      List<String> columns = null;
      if (with.getWithItemList() != null) {
        columns = new ArrayList<>();
        for (Object c : with.getWithItemList()) {
          columns.add(JoinSplitter.unquote(c.toString()));
        }
      }
      String name = JoinSplitter.unquote(with.getAliasName());
      ctes.put(name, part(name, with.getSelect().getSelect(), columns));
    }
    select.setWithItemsList(null);
  }

  /** A derived table or a CTE's name in FROM becomes its rows' placeholder (same name); anything else stays. */
  private FromItem from(FromItem item) throws Refused {
    if (item instanceof LateralSubSelect) {
      throw new Refused("a LATERAL derived table across shards is not answered");
    }
    if (item instanceof Table t && t.getSchemaName() == null && ctes.containsKey(JoinSplitter.unquote(t.getName()))) {
      Table rows = new Table(placeholder(ctes.get(JoinSplitter.unquote(t.getName()))));
      rows.setAlias(t.getAlias() != null ? t.getAlias() : new net.sf.jsqlparser.expression.Alias(t.getName()));
      return rows;
    }
    if (!(item instanceof ParenthesedSelect sub) || sub.getAlias() == null) {
      return item;
    }
    if (sub.getAlias().getAliasColumns() != null) {
      throw new Refused("a derived table with a column list");
    }
    int k = part(JoinSplitter.unquote(sub.getAlias().getName()), sub.getSelect(), null);
    Table rows = new Table(placeholder(k));
    rows.setAlias(sub.getAlias());
    return rows;
  }

  private int part(String name, Select body, List<String> columns) throws Refused {
    for (String read : new TablesNamesFinder<Void>().getTables((net.sf.jsqlparser.statement.Statement) body)) {
      if (derived.contains(JoinSplitter.unquote(read))) {
        throw new Refused(name + " reads CTE " + JoinSplitter.unquote(read) + ", which is no table of its own");
      }
    }
    requireDeterminate(name, body);
    StepLimit.capped(body, cap);
    NumberedParameters.Text text = NumberedParameters.print(body);
    parts.add(new Part(name, text.sql(), text.order(), columns));
    derived.add(name.toLowerCase(Locale.ROOT));
    return parts.size() - 1;
  }

  /**
   * A column shown next to an aggregate without GROUP BY is any row's value on one server (the first
   * it reads); read first across shards it would be another row's: refused rather than answered so.
   */
  private static void requireDeterminate(String name, Select body) throws Refused {
    if (!(body instanceof PlainSelect p) || p.getGroupBy() != null) {
      return;
    }
    boolean aggregates = p.getHaving() != null;
    for (SelectItem<?> item : p.getSelectItems()) {
      aggregates |= Windows.groupAggregate(item.getExpression()); // a window function keeps every row: no aggregate
    }
    for (SelectItem<?> item : p.getSelectItems()) {
      if (aggregates && (item.getExpression() instanceof Column || item.getExpression() instanceof AllColumns)) {
        throw new Refused("derived table " + name + " shows " + item + " next to an aggregate without GROUP BY (one server"
            + " gives any row's value)");
      }
    }
  }

  /** A CTE is read only as a table of the statement's own FROM (where its rows stand in for it). */
  private void requireCtesInFrom(PlainSelect outer) throws Refused {
    for (String name : new TablesNamesFinder<Void>().getTables((net.sf.jsqlparser.statement.Statement) outer)) {
      if (ctes.containsKey(JoinSplitter.unquote(name))) {
        throw new Refused("CTE " + JoinSplitter.unquote(name) + " is read inside a subquery");
      }
    }
  }

  /** Whether the outer statement reads a table that is not GLOBAL (besides the parts' rows). */
  private boolean readsOthers(PlainSelect outer, JoinSplitter.Catalog catalog) {
    for (String name : new TablesNamesFinder<Void>().getTables((net.sf.jsqlparser.statement.Statement) outer)) {
      String table = JoinSplitter.unquote(name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name);
      if (table.startsWith("__shx_derived_") || derived.contains(table)) {
        continue;
      }
      TableDef def = catalog.def(table);
      if (def == null || def.kind() != TableKind.GLOBAL) {
        return true;
      }
    }
    return false;
  }

  /** On several shards, a derived table's rows may not be kept by an outer join (each shard would keep them). */
  private void requireInnerKept(PlainSelect outer) throws Refused {
    for (Join j : outer.getJoins() == null ? List.<Join>of() : outer.getJoins()) {
      boolean outerJoin = j.isLeft() || j.isRight() || j.isFull() || j.isOuter() || j.isNatural();
      if (outerJoin && (j.isRight() || j.isFull() || !isDerived(j.getFromItem()))) {
        throw new Refused("an outer join next to a derived table's rows, which every shard the statement runs on would"
            + " hold (only LEFT JOIN <derived table> is answered)");
      }
    }
  }

  private boolean isDerived(FromItem item) {
    return item instanceof Table t && (t.getName().startsWith("__shx_derived_") || derived.contains(JoinSplitter.unquote(t.getName())));
  }

  /** The outer text and, per marker, the statement's parameter or a part's rows ({@code params + K}, at each place they stand). */
  private static Plan outer(List<Part> parts, PlainSelect select, int params, boolean routed) {
    NumberedParameters.Text text = NumberedParameters.print(select);
    String sql = text.sql();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("__shx_derived_(\\d+)__").matcher(sql);
    List<Integer> order = new ArrayList<>();
    int from = 0;
    while (m.find()) {
      int before = SqlLexer.countParameters(sql.substring(0, m.start()));
      while (from < before) {
        order.add(text.order()[from++]);
      }
      order.add(params + Integer.parseInt(m.group(1)));
    }
    while (from < text.order().length) {
      order.add(text.order()[from++]);
    }
    return new Plan(List.copyOf(parts), sql, order.stream().mapToInt(Integer::intValue).toArray(), params, routed);
  }
}
