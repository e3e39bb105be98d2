package dev.shardex.driver.sql;

import dev.shardex.driver.sql.MergeSpec.Fold;
import dev.shardex.driver.sql.MergeSpec.Slot;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * The select list a merged SELECT's shards return: the caller's columns, then hidden ones
 * ({@code __shx_N}) that ORDER BY, GROUP BY, HAVING and AVG need, each with the {@link Slot} saying
 * how the merge folds it. The clause rewriters ({@link SelectListFold}, {@link GroupHaving},
 * {@link OrderKeys}) find or add their columns here.
 */
final class MergeColumns {
  private static final String HIDDEN = "__shx_";

  final PlainSelect select;
  /** The caller's select items (the live list of {@link #select}: hidden items join it at the end). */
  final List<SelectItem<?>> items;
  /** How many columns the caller selected. */
  final int visible;
  /** The caller's columns' slots (the hidden ones' are appended for a grouped query). */
  final List<Slot> columns = new ArrayList<>();
  /** Slots of the hidden columns, in the order they are appended after the caller's. */
  final List<Slot> hiddenSlots = new ArrayList<>();
  final List<SelectItem<?>> hiddenItems = new ArrayList<>();
  /** GROUP BY terms added for COUNT(DISTINCT x): shard-side only, not merge group keys. */
  final Set<Expression> addedGroupBy = Collections.newSetFromMap(new IdentityHashMap<>());
  final boolean aggregate;
  final boolean star;
  private final String shards;

  MergeColumns(PlainSelect select, String shards) {
    this.select = select;
    this.items = select.getSelectItems();
    this.visible = items.size();
    this.shards = shards;
    // HAVING with an aggregate makes the whole table one group, even without GROUP BY
    // a window function (computed by each shard: MergeRewriter) is a plain column, not an aggregate
    this.aggregate = select.getGroupBy() != null || items.stream().anyMatch(i -> Windows.groupAggregate(i.getExpression()))
        || Windows.groupAggregate(select.getHaving());
    this.star = items.stream().anyMatch(i -> i.getExpression() instanceof AllColumns
        || i.getExpression() instanceof AllTableColumns);
  }

  /**
   * The merged column holding an aggregate: the caller's, if it selects the same aggregate, or new
   * hidden ones (COUNT(DISTINCT x) as x grouped on the shards, AVG as SUM plus COUNT).
   */
  int aggregateColumn(Function f) throws SQLException {
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
      hiddenItems.add(hiddenItem(arg));
      hiddenSlots.add(new Slot(distinctFold, 0, text));
      return items.size() + hiddenItems.size();
    }
    if (name.equals("AVG")) {
      Expression arg = f.getParameters().get(0);
      int sum = items.size() + hiddenItems.size() + 1;
      hiddenItems.add(hiddenItem(Aggregates.call("SUM", arg)));
      hiddenSlots.add(new Slot(Fold.SUM, sum + 1, text));
      hiddenItems.add(hiddenItem(Aggregates.call("COUNT", arg)));
      hiddenSlots.add(new Slot(Fold.COUNT, 0, null));
      return sum;
    }
    hiddenItems.add(hiddenItem(f));
    hiddenSlots.add(new Slot(Aggregates.foldOf(f), 0, text));
    return items.size() + hiddenItems.size();
  }

  /** COUNT/SUM/AVG(DISTINCT x) travel as x, grouped on the shards, and fold over the distinct values. */
  Fold distinctFold(String name, Function f) throws SQLException {
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

  /** The shard column holding this expression: a caller's column (by alias or same text), or a new hidden one. */
  int columnFor(Expression e, Fold fold) {
    String text = e.toString();
    for (int i = 0; i < visible; i++) {
      SelectItem<?> item = items.get(i);
      String alias = item.getAlias() == null ? null : SqlNames.unquote(item.getAlias().getName());
      boolean sameAlias = alias != null && alias.equals(bareName(e));
      Slot kind = i < columns.size() ? columns.get(i) : null;
      boolean rewritten = kind != null && (kind.avgCount() > 0 || kind.fold() == Fold.DISTINCT_VALUES);
      if (sameAlias || (!rewritten && item.getExpression().toString().equalsIgnoreCase(text))) {
        return i + 1;
      }
    }
    return hiddenColumn(e, fold);
  }

  /**
   * The name an unqualified column, or a word JSqlParser reads as a keyword (YEAR, MONTH, ... in
   * GROUP BY year), stands for; null for anything else.
   */
  static String bareName(Expression e) {
    if (e instanceof Column c && c.getTable() == null) {
      return SqlNames.unquote(c.getColumnName());
    }
    return e instanceof DateUnitExpression d ? d.toString().toLowerCase(Locale.ROOT) : null;
  }

  int hiddenColumn(Expression e, Fold fold) {
    hiddenItems.add(hiddenItem(qualifiedForStar(e)));
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
    Table only = null;
    for (SelectItem<?> item : items) {
      if (item.getExpression() instanceof AllTableColumns t) {
        if (only != null) {
          return e;
        }
        only = t.getTable();
      } else if (item.getExpression() instanceof AllColumns) {
        return e;
      }
    }
    return only == null ? e : new Column(new Table(only.getFullyQualifiedName()), c.getColumnName());
  }

  /** The next hidden select item, {@code e AS __shx_N}. */
  SelectItem<?> hiddenItem(Expression e) {
    return new SelectItem<>(e, new Alias(HIDDEN + hiddenItems.size(), true));
  }

  @SuppressWarnings("deprecation") // JSqlParser 5.4 deprecates it without a replacement taking one expression
  void addGroupBy(Expression e) {
    GroupByElement g = select.getGroupBy();
    if (g == null) {
      g = new GroupByElement();
      select.setGroupByElement(g);
    }
    g.addGroupByExpression(e);
    addedGroupBy.add(e);
  }

  /**
   * A GROUP BY / ORDER BY position as written; one past int's range (ORDER BY 18446744073709551616)
   * is past any select list all the same, and the merge answers it as the server does (1054).
   */
  static int position(LongValue position) {
    java.math.BigInteger v = position.getBigIntegerValue();
    return v.signum() >= 0 && v.bitLength() < 31 ? v.intValue() : Integer.MAX_VALUE;
  }

  SQLException unsupported(String what) {
    return MergeRewriter.unsupported(shards, what);
  }
}
