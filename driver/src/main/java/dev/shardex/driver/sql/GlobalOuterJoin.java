package dev.shardex.driver.sql;

import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * A SELECT over GLOBAL tables and one SHARDED table on the inner side of an outer join
 * ({@code countries g LEFT JOIN users u ON u.country = g.code}): on every shard it would return each
 * GLOBAL row without a match once per shard. Cut in two ({@link JoinAggregates.Plan}): the
 * <b>inner</b> statement reads the SHARDED table's rows that the join could match (its columns the
 * statement reads, filtered by the ON terms that read it alone), routed and merged as any read; the
 * <b>outer</b> statement is the statement itself with that table replaced by those rows, as a typed
 * JSON_TABLE under the same alias and column names, run by one shard, where the GLOBAL tables are
 * whole. So one server pads, groups (COUNT(u.id) = 0, COUNT(*) = 1 for a country without users),
 * sorts and limits; nothing is evaluated on the client.
 */
public final class GlobalOuterJoin {
  private final JoinSplitter.Catalog catalog;
  private final PlainSelect select;
  private Table sharded;
  private String table;
  private Join own; // the join that brings the SHARDED table in; null when it is the FROM table

  private GlobalOuterJoin(JoinSplitter.Catalog catalog, PlainSelect select) {
    this.catalog = catalog;
    this.select = select;
  }

  /** The cut of {@code sql} (plain {@code ?} markers), or null when it is not one SHARDED table among GLOBAL ones. */
  public static JoinAggregates.Plan of(String sql, JoinSplitter.Catalog catalog) throws JoinAggregates.Refused, SQLException {
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    if (!(parsed instanceof PlainSelect select) || select.getJoins() == null || select.getWithItemsList() != null) {
      return null;
    }
    GlobalOuterJoin cut = new GlobalOuterJoin(catalog, select);
    if (!cut.oneShardedAmongGlobal()) {
      return null;
    }
    if (select.getForMode() != null || select.getIntoTables() != null) {
      throw new JoinAggregates.Refused("a locking read or INTO over a GLOBAL table's outer join with a SHARDED table is not answered");
    }
    try {
      return cut.cut(SqlLexer.countParameters(sql));
    } catch (SQLException e) {
      throw new JoinAggregates.Refused("the columns of " + cut.table + " could not be read: " + e.getMessage());
    }
  }

  private boolean oneShardedAmongGlobal() throws SQLException {
    if (!kind(select.getFromItem(), null)) {
      return false;
    }
    for (Join j : select.getJoins()) {
      if (!kind(j.getFromItem(), j)) {
        return false;
      }
    }
    return sharded != null;
  }

  /** Notes the SHARDED table; whether the item is a plain GLOBAL table or the only SHARDED one. */
  private boolean kind(Object item, Join join) throws SQLException {
    if (!(item instanceof Table t)) {
      return false;
    }
    TableDef def = catalog.def(JoinSplitter.unquote(t.getName()));
    if (def != null && def.kind() == TableKind.SHARDED && sharded == null) {
      sharded = t;
      table = JoinSplitter.unquote(t.getName());
      own = join;
      return true;
    }
    return def != null && def.kind() == TableKind.GLOBAL;
  }

  private JoinAggregates.Plan cut(int params) throws JoinAggregates.Refused, SQLException {
    String alias = sharded.getAlias() != null ? sharded.getAlias().getName() : sharded.getName();
    List<String> read = read(JoinSplitter.unquote(alias));
    List<String> declared = new ArrayList<>();
    List<SelectItem<?>> items = new ArrayList<>();
    for (String c : read) {
      declared.add(JoinAggregates.jsonColumn("`" + c + "`", table + "." + c, catalog.type(table, c), declared.size()));
      items.add(SelectItem.from(new Column(new Table(alias), "`" + c + "`")));
    }
    PlainSelect inner = new PlainSelect();
    inner.setFromItem(sharded);
    inner.setSelectItems(items);
    inner.setWhere(ownTerms(alias));
    NumberedParameters.Text innerText = NumberedParameters.print(inner);
    // Every column's metadata is the server's: a column of the padded side is nullable there, as on one server.
    int[] plain = new int[select.getSelectItems().size()];
    java.util.Arrays.fill(plain, -1);
    if (own == null) {
      select.setFromItem(JoinAggregates.placeholder());
    } else {
      own.setFromItem(JoinAggregates.placeholder());
    }
    return JoinAggregates.jsonTable(select, declared, alias, params, innerText, plain);
  }

  /** The SHARDED table's columns the statement reads (all of them, in table order, under a *), lower case. */
  private List<String> read(String alias) throws JoinAggregates.Refused, SQLException {
    List<String> all = catalog.columns(table);
    if (all.isEmpty()) {
      throw new JoinAggregates.Refused("the columns of " + table + " are not known (is it on the shards?)");
    }
    if (select.getSelectItems().stream().anyMatch(i -> i.getExpression() instanceof AllColumns
        && !(i.getExpression() instanceof AllTableColumns at && !mine(at.getTable().getName(), alias)))) {
      return all;
    }
    Set<String> used = new LinkedHashSet<>();
    List<String> others = otherColumns();
    boolean[] nested = {false};
    ExpressionVisitorAdapter<Void> v = new SubqueryVisitor<>() {
      @Override
      public <S> Void visit(Column c, S context) {
        String name = JoinSplitter.unquote(c.getColumnName());
        boolean qualified = c.getTable() != null && c.getTable().getName() != null;
        if (all.contains(name) && (qualified ? mine(c.getTable().getName(), alias) : !others.contains(name))) {
          used.add(name);
        }
        return null;
      }

      @Override
      public <S> Void visit(net.sf.jsqlparser.statement.select.Select s, S context) {
        nested[0] = true; // a subquery (over GLOBAL tables: the others ran first) may read any column: all of them
        return null;
      }

      @Override
      public <S> Void visit(net.sf.jsqlparser.statement.select.ParenthesedSelect s, S context) {
        return visit((net.sf.jsqlparser.statement.select.Select) s, context);
      }
    };
    for (Expression e : expressions()) {
      e.accept(v, null);
    }
    if (nested[0]) {
      return all;
    }
    if (used.isEmpty()) {
      used.add(all.get(0)); // a row each, for COUNT(*) and padding, even when no column is shown
    }
    List<String> out = new ArrayList<>();
    for (String c : all) {
      if (used.contains(c)) {
        out.add(c);
      }
    }
    return out;
  }

  private boolean mine(String qualifier, String alias) {
    return JoinSplitter.unquote(qualifier).equals(alias);
  }

  /** The columns of the statement's other (GLOBAL) tables: a bare name among them is theirs, as one server resolves it (or refuses it as ambiguous). */
  private List<String> otherColumns() throws SQLException {
    List<String> out = new ArrayList<>();
    List<Object> items = new ArrayList<>();
    items.add(select.getFromItem());
    select.getJoins().forEach(j -> items.add(j.getFromItem()));
    for (Object item : items) {
      if (item != sharded) {
        out.addAll(catalog.columns(JoinSplitter.unquote(((Table) item).getName())));
      }
    }
    return out;
  }

  /** Every expression of the statement (select list, ON, WHERE, GROUP BY, HAVING, ORDER BY). */
  private List<Expression> expressions() {
    List<Expression> out = new ArrayList<>();
    select.getSelectItems().forEach(i -> out.add(i.getExpression()));
    for (Join j : select.getJoins()) {
      if (j.getOnExpressions() != null) {
        out.addAll(j.getOnExpressions());
      }
    }
    out.add(select.getWhere());
    if (select.getGroupBy() != null && select.getGroupBy().getGroupByExpressionList() != null) {
      for (Object e : select.getGroupBy().getGroupByExpressionList()) {
        out.add((Expression) e);
      }
    }
    out.add(select.getHaving());
    if (select.getOrderByElements() != null) {
      select.getOrderByElements().forEach(o -> out.add(o.getExpression()));
    }
    out.removeIf(e -> e == null);
    return out;
  }

  /**
   * The terms of the SHARDED table's own ON (of a LEFT or inner join) that read it alone: a row
   * failing one matches nothing, so it need not be read. WHERE terms are not taken: they see the
   * padded rows (WHERE u.id IS NULL keeps exactly the GLOBAL rows without a match).
   */
  private Expression ownTerms(String alias) {
    if (own == null || own.isRight() || own.isFull() || own.getOnExpressions() == null) {
      return null;
    }
    Expression where = null;
    for (Expression on : own.getOnExpressions()) {
      for (Expression term : ExpressionParts.conjuncts(on)) {
        if (readsOnly(term, alias)) {
          where = where == null ? term : new net.sf.jsqlparser.expression.operators.conditional.AndExpression(where, term);
        }
      }
    }
    return where;
  }

  private boolean readsOnly(Expression term, String alias) {
    try {
      List<Column> columns = ExpressionParts.columns(term);
      return !columns.isEmpty() && columns.stream().allMatch(c -> c.getTable() != null && c.getTable().getName() != null
          && mine(c.getTable().getName(), JoinSplitter.unquote(alias)));
    } catch (JoinSplitter.Refused subquery) {
      return false;
    }
  }

}
