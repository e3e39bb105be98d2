package dev.shardex.driver.sql;

import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.LateralSubSelect;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Cuts a SELECT whose derived tables or (non-recursive) CTEs need a cross-shard merge of their own
 * into <b>parts</b>, each derived table's or CTE's SELECT as a statement of its own (routed and merged
 * as any read, at most {@code cap} rows: the cap-th refuses it), and the <b>outer</b> statement, where each part's rows
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

  /** A derived table or CTE: its name in the statement, and its SELECT binding the statement's {@code params}. */
  public record Part(String name, String sql, int[] params) {}

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
      j.setRightItem(cut.from(j.getRightItem()));
    }
    if (cut.parts.isEmpty()) {
      return null;
    }
    boolean routed = cut.readsOthers(select, catalog);
    if (routed) {
      cut.requireInnerKept(select);
    }
    return cut.outer(select, SqlLexer.countParameters(sql), routed);
  }

  /** Each CTE's body becomes {@code SELECT * FROM <its rows>}; its column list, if any, names them. */
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
      int k = part(JoinSplitter.unquote(with.getAliasName()), with.getSelect().getSelect());
      with.setSelect(new ParenthesedSelect().withSelect(
          (Select) parse("SELECT * FROM " + placeholder(k) + " AS __shx_d" + k)));
    }
  }

  /** A derived table in FROM becomes its rows' placeholder (same alias); anything else stays. */
  private FromItem from(FromItem item) throws Refused {
    if (item instanceof LateralSubSelect) {
      throw new Refused("a LATERAL derived table across shards is not answered");
    }
    if (!(item instanceof ParenthesedSelect sub) || sub.getAlias() == null) {
      return item;
    }
    if (sub.getAlias().getAliasColumns() != null) {
      throw new Refused("a derived table with a column list");
    }
    int k = part(JoinSplitter.unquote(sub.getAlias().getName()), sub.getSelect());
    return new Table(placeholder(k)).withAlias(sub.getAlias());
  }

  private int part(String name, Select body) throws Refused {
    for (String read : new TablesNamesFinder<Void>().getTables((net.sf.jsqlparser.statement.Statement) body)) {
      if (derived.contains(JoinSplitter.unquote(read))) {
        throw new Refused(name + " reads CTE " + JoinSplitter.unquote(read) + ", which is no table of its own");
      }
    }
    capped(body);
    NumberedParameters.Text text = NumberedParameters.print(body);
    parts.add(new Part(name, text.sql(), text.order()));
    derived.add(name.toLowerCase(Locale.ROOT));
    return parts.size() - 1;
  }

  /**
   * At most {@code cap} rows (the most a merged read may fetch): a LIMIT of its own above that is
   * lowered, since a statement whose cap-th row comes back is refused anyway.
   */
  private void capped(Select s) {
    Limit limit = s.getLimit();
    if (limit == null && s.getOffset() == null && s.getFetch() == null) {
      s.setLimit(new Limit().withRowCount(new LongValue(cap)));
    } else if (limit != null && limit.getRowCount() instanceof LongValue n && n.getValue() > cap) {
      limit.setRowCount(new LongValue(cap));
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
      if (outerJoin && (j.isRight() || j.isFull() || !isDerived(j.getRightItem()))) {
        throw new Refused("an outer join next to a derived table's rows, which every shard the statement runs on would"
            + " hold (only LEFT JOIN <derived table> is answered)");
      }
    }
  }

  private boolean isDerived(FromItem item) {
    return item instanceof Table t && (t.getName().startsWith("__shx_derived_") || derived.contains(JoinSplitter.unquote(t.getName())));
  }

  /** The outer text and, per marker, the statement's parameter or a part's rows ({@code params + K}). */
  private Plan outer(PlainSelect select, int params, boolean routed) {
    NumberedParameters.Text text = NumberedParameters.print(select);
    String sql = text.sql();
    List<int[]> inserts = new ArrayList<>(); // {markers before it, K}, in text order
    for (int k = 0; k < parts.size(); k++) {
      int at = sql.indexOf(placeholder(k));
      inserts.add(new int[] {SqlLexer.countParameters(sql.substring(0, at)), k, at});
    }
    inserts.sort((a, b) -> Integer.compare(a[2], b[2]));
    int[] order = new int[text.order().length + parts.size()];
    int from = 0;
    int out = 0;
    for (int[] insert : inserts) {
      while (from < insert[0]) {
        order[out++] = text.order()[from++];
      }
      order[out++] = params + insert[1];
    }
    while (from < text.order().length) {
      order[out++] = text.order()[from++];
    }
    return new Plan(List.copyOf(parts), sql, order, params, routed);
  }

  private static Object parse(String sql) {
    try {
      return Analyzer.parse(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("the driver's own text does not parse: " + sql, e);
    }
  }
}
