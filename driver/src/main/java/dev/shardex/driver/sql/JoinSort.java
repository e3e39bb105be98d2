package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * The ORDER BY of a SELECT cut by {@link JoinSplitter}: either the driving statement's own (every
 * term a driving-side column that is no select alias, so the joined rows keep the driving order), or
 * terms the client sorts the joined rows by ({@link JoinSplit.SortTerm}): positions, select
 * aliases, select items named again, columns inside a {@code t.*}, and one-side expressions that
 * their side selects as hidden columns.
 */
final class JoinSort {
  /** The sides an expression reads: true for the dependent table, false for the rest. */
  interface Sides {
    Set<Boolean> of(Expression e) throws JoinSplitter.Refused, SQLException;
  }

  private final PlainSelect select;
  private final Sides sides;

  JoinSort(PlainSelect select, Sides sides) {
    this.select = select;
    this.sides = sides;
  }

  /** Whether every ORDER BY term is a driving-side column (not a select alias): the driving statement orders. */
  boolean drivingOrder() throws JoinSplitter.Refused, SQLException {
    for (OrderByElement o : select.getOrderByElements()) {
      if (!(o.getExpression() instanceof Column c) || isSelectAlias(c) || sides.of(c).contains(true)) {
        return false;
      }
    }
    return true;
  }

  /** Where hidden sort items go: each side's select list and the output's items (null: only check). */
  record Hidden(List<JoinSplit.Item> output, List<String> depItems, List<SelectItem<?>> drivingItems) {}

  /**
   * ORDER BY terms the client sorts by: positions, select aliases, select items named again, columns
   * of a {@code t.*}, and anything else reading one side, which that side selects as a hidden item.
   */
  List<JoinSplit.SortTerm> clientSort(Hidden hidden) throws JoinSplitter.Refused, SQLException {
    List<JoinSplit.SortTerm> terms = new ArrayList<>();
    for (OrderByElement o : select.getOrderByElements()) {
      Expression e = o.getExpression();
      boolean desc = !o.isAsc();
      if (e instanceof net.sf.jsqlparser.expression.LongValue position) {
        terms.add(new JoinSplit.SortTerm((int) position.getValue(), -1, null, desc));
        continue;
      }
      int item = itemNamed(e);
      String column = null;
      if (item < 0 && e instanceof Column c && c.getTable() != null && c.getTable().getName() != null) {
        item = starOf(c.getTable().getName());
        column = JoinSplitter.unquote(c.getColumnName());
      }
      if (item >= 0) {
        int stars = (int) select.getSelectItems().subList(0, item).stream().filter(JoinSplitter::isStar).count();
        terms.add(new JoinSplit.SortTerm(-1, item + stars, column, desc)); // a * is two output items (each side's columns)
        continue;
      }
      Set<Boolean> read = sides.of(e);
      if (read.size() > 1 || Aggregates.isAggregate(e) || Aggregates.hasWindow(e)) {
        throw new JoinSplitter.Refused("ORDER BY " + e + " reads both sides of the join, or aggregates");
      }
      if (hidden != null) {
        boolean dependentSide = read.contains(true);
        String alias = "__shx_s" + terms.size();
        int at = dependentSide ? hidden.depItems().size() : hidden.drivingItems().size();
        if (dependentSide) {
          hidden.depItems().add(e + " AS " + alias);
        } else {
          hidden.drivingItems().add(SelectItem.from(e, new Alias(alias, true)));
        }
        hidden.output().add(new JoinSplit.Item(dependentSide, at, false));
        terms.add(new JoinSplit.SortTerm(-1, hidden.output().size() - 1, null, desc));
      } else {
        terms.add(null);
      }
    }
    return terms;
  }

  /** The {@code t.*} select item of table (or alias) {@code t}, or -1. */
  private int starOf(String table) {
    String t = JoinSplitter.unquote(table);
    List<SelectItem<?>> items = select.getSelectItems();
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i).getExpression() instanceof AllTableColumns star && JoinSplitter.unquote(star.getTable().getName()).equals(t)) {
        return i;
      }
    }
    return -1;
  }

  /** The select item an ORDER BY term names: by its alias, or as the same column or expression; -1 if none. */
  private int itemNamed(Expression e) {
    List<SelectItem<?>> items = select.getSelectItems();
    if (e instanceof Column c && (c.getTable() == null || c.getTable().getName() == null)) {
      String name = JoinSplitter.unquote(c.getColumnName());
      for (int i = 0; i < items.size(); i++) {
        if (items.get(i).getAlias() != null && JoinSplitter.unquote(items.get(i).getAlias().getName()).equals(name)) {
          return i;
        }
      }
    }
    String text = e.toString().replace("`", "").toLowerCase(Locale.ROOT);
    for (int i = 0; i < items.size(); i++) {
      Expression x = items.get(i).getExpression();
      if (x != null && !(x instanceof AllColumns) && x.toString().replace("`", "").toLowerCase(Locale.ROOT).equals(text)) {
        return i;
      }
    }
    return -1;
  }

  /** An unqualified name that a select item's alias gives (MySQL's ORDER BY prefers it to a column). */
  private boolean isSelectAlias(Column c) {
    if (c.getTable() != null && c.getTable().getName() != null) {
      return false;
    }
    String name = JoinSplitter.unquote(c.getColumnName());
    return select.getSelectItems().stream().anyMatch(i -> i.getAlias() != null && JoinSplitter.unquote(i.getAlias().getName()).equals(name));
  }
}
