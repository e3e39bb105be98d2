package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * INSERT and REPLACE into a template: the target, its column list, and the rows' values from
 * {@code VALUES}, {@code SET} or a SELECT (walked as a subquery, its plain-column items noted so
 * the router can tell a key copied unchanged).
 */
final class InsertTemplates {
  private final TemplateFacts facts;
  private final SelectWalker walker;

  /** What an INSERT's rows come from: the columns they fill and their values, or a SELECT. */
  private record Rows(List<String> columns, List<List<ValueSource>> rows, boolean fromSelect) {}

  InsertTemplates(TemplateFacts facts, SelectWalker walker) {
    this.facts = facts;
    this.walker = walker;
  }

  RouteTemplate insert(Insert insert) {
    int scope = facts.newScope(-1);
    int target = facts.addTable(insert.getTable(), scope);
    Rows rows = rows(SqlNames.names(insert.getColumns()), insert.getSetUpdateSets(), insert.getSelect(), scope);
    Map<String, ValueSource> assignments = walker.reader.assignments(insert.getDuplicateUpdateSets(), scope);
    RouteTemplate t = facts.build(StatementType.INSERT, target, rows.columns(), rows.rows(), rows.fromSelect(), assignments,
        SelectShape.NONE, false);
    return insert.isModifierIgnore() ? t.ignoring() : t;
  }

  RouteTemplate upsert(Upsert upsert) {
    int scope = facts.newScope(-1);
    int target = facts.addTable(upsert.getTable(), scope);
    List<String> columns = upsert.getUpdateSets() != null ? List.of() : SqlNames.names(upsert.getColumns());
    Rows rows = rows(columns, upsert.getUpdateSets(), upsert.getSelect(), scope);
    return facts.build(StatementType.REPLACE, target, rows.columns(), rows.rows(), rows.fromSelect(), Map.of(),
        SelectShape.NONE, false);
  }

  private Rows rows(List<String> named, List<UpdateSet> sets, Select select, int scope) {
    if (sets != null) {
      List<String> columns = new ArrayList<>(named);
      List<ValueSource> row = new ArrayList<>();
      for (UpdateSet set : sets) {
        for (int i = 0; i < set.getColumns().size(); i++) {
          columns.add(SqlNames.columnName(set.getColumns().get(i)));
          row.add(walker.reader.value(set.getValues().get(i)));
        }
      }
      return new Rows(columns, List.of(row), false);
    } else if (select instanceof Values values) {
      return new Rows(named, valueRows(values), false);
    } else if (select != null) {
      facts.sourceColumns = sourceColumns(select, facts.newScope(scope));
      return new Rows(named, List.of(), true);
    }
    return new Rows(named, List.of(), false);
  }

  /**
   * Walks an INSERT's SELECT; per select item of a plain SELECT, the column it shows as is (null for
   * any other item), so the router can tell a key copied unchanged from a source key.
   */
  private List<ColumnRef> sourceColumns(Select select, int scope) {
    walker.walkSelect(select, scope);
    List<ColumnRef> out = new ArrayList<>();
    if (select instanceof PlainSelect plain && plain.getWithItemsList() == null) {
      for (SelectItem<?> item : plain.getSelectItems()) {
        out.add(item.getExpression() instanceof Column c ? SqlNames.ref(c, scope) : null);
      }
    }
    return out;
  }

  private List<List<ValueSource>> valueRows(Values values) {
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
      out.add(walker.reader.value(e));
    }
    return out;
  }
}
