package dev.shardex.driver.sql;

import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Walks the structure of a SELECT (CTEs, set operations, FROM, joins, select list, ORDER BY and
 * LIMIT) into {@link TemplateFacts}: every table in its scope, outer joins' NULL-supplying sides,
 * USING links. Subqueries open a new scope whose parent is the enclosing one; WHERE and ON go to
 * the {@link ConjunctReader}.
 */
final class SelectWalker {
  private final TemplateFacts facts;
  final ConjunctReader reader;

  SelectWalker(TemplateFacts facts) {
    this.facts = facts;
    this.reader = new ConjunctReader(facts, this);
  }

  void walkSelect(Select select, int scope) {
    if (select.getWithItemsList() != null) {
      for (WithItem<?> with : select.getWithItemsList()) {
        // A CTE is a named subquery: its body is walked once, and its name is no table.
        facts.cteNames.add(SqlNames.unquote(with.getAliasName()));
        if (with.getSelect() != null) {
          facts.nestedNeedsMerge |= SelectShapes.mergeSensitive(with.getSelect());
          walkSelect(with.getSelect(), facts.rowScope(scope));
        }
      }
    }
    if (select instanceof PlainSelect plain) {
      walkPlain(plain, scope);
    } else if (select instanceof SetOperationList union) {
      walkBranches(union, scope);
    } else if (select instanceof TableStatement table) {
      facts.addTable(table.getTable(), scope);
    } else if (select instanceof ParenthesedSelect parenthesed) {
      walkSelect(parenthesed.getSelect(), scope);
    } else if (select instanceof Values values) {
      scan(values.getExpressions(), scope);
    }
    if (select.getOrderByElements() != null) {
      for (OrderByElement o : select.getOrderByElements()) {
        scan(o.getExpression(), scope);
      }
    }
    if (select.getLimit() != null) {
      scan(select.getLimit().getRowCount(), scope);
      scan(select.getLimit().getOffset(), scope);
    }
    if (select.getOffset() != null) {
      scan(select.getOffset().getOffset(), scope); // LIMIT ? OFFSET ?: the offset is its own clause
    }
    if (select.getFetch() != null) {
      scan(select.getFetch().getExpression(), scope);
    }
  }

  private void walkBranches(SetOperationList union, int scope) {
    boolean top = scope == 0;
    for (int i = 0; i < union.getSelects().size(); i++) {
      if (top) {
        facts.branch = i; // top-level UNION branches route independently
      }
      facts.nestedNeedsMerge |= SelectShapes.mergeSensitive(union.getSelects().get(i));
      int before = facts.tables.size();
      walkSelect(union.getSelects().get(i), facts.rowScope(scope));
      facts.nestedNeedsMerge |= top && facts.tables.size() == before; // no table: it would run on every shard the others need
    }
  }

  private void walkPlain(PlainSelect plain, int scope) {
    if (scope == 0) {
      facts.windows = Windows.of(plain, scope);
    }
    if (plain.getFromItem() != null) {
      walkFrom(plain.getFromItem(), scope);
    }
    walkJoins(plain.getJoins(), scope);
    for (SelectItem<?> item : plain.getSelectItems()) {
      scan(item.getExpression(), scope);
    }
    reader.where(plain.getWhere(), scope);
    scan(plain.getHaving(), scope);
  }

  void walkFrom(FromItem item, int scope) {
    if (item instanceof Table table) {
      facts.addTable(table, scope);
    } else if (item instanceof ParenthesedSelect sub) {
      // A derived table computes per shard; a concatenation is wrong if it aggregates or limits,
      // unless it groups by a shard key (each group on one shard), or only computes windows each
      // partitioned by a shard key (each partition on one shard), which routing decides.
      int inner = facts.rowScope(scope);
      if (SelectShapes.mergeSensitive(sub.getSelect())) {
        List<ColumnRef> groups = SelectShapes.keyGroupCandidates(sub.getSelect(), inner);
        List<SelectShape.KeyGrouped> windows = SelectShapes.windowCandidates(sub.getSelect(), inner);
        if (!groups.isEmpty()) {
          facts.keyGrouped.add(new SelectShape.KeyGrouped(inner, groups));
        } else if (!windows.isEmpty()) {
          facts.keyGrouped.addAll(windows); // exact on each shard when every window is partitioned by a key
        } else {
          facts.nestedNeedsMerge = true;
        }
      }
      walkSelect(sub.getSelect(), inner);
    } else if (item instanceof ParenthesedFromItem nested) {
      walkFrom(nested.getFromItem(), scope);
      walkJoins(nested.getJoins(), scope);
    }
  }

  @SuppressWarnings("deprecation") // Join.getRightItem: its replacement getFromItem is the same field
  void walkJoins(List<Join> joins, int scope) {
    if (joins == null) {
      return;
    }
    int scopeStart = facts.tables.size();
    for (Join join : joins) {
      int before = facts.tables.size();
      walkFrom(join.getRightItem(), scope);
      if (join.isLeft() || join.isFull()) {
        facts.markNullSupplying(before, facts.tables.size());
      }
      if (join.isRight() || join.isFull()) {
        facts.markNullSupplying(Math.max(0, scopeStart - 1), before);
      }
      if (join.getOnExpressions() != null) {
        for (Expression on : join.getOnExpressions()) {
          reader.where(on, scope);
        }
      }
      if (join.getUsingColumns() != null && join.getFromItem() instanceof Table right) {
        usingLinks(join.getUsingColumns(), right, before, scope);
      }
    }
  }

  /** USING (k): the right table's k equals k of each table joined before it in this scope. */
  private void usingLinks(List<Column> using, Table right, int before, int scope) {
    String rightName = right.getAlias() != null ? SqlNames.unquote(right.getAlias().getName()) : SqlNames.qualifier(right);
    for (Column c : using) {
      String name = SqlNames.columnName(c);
      for (int i = 0; i < before; i++) {
        TableRef left = facts.tables.get(i);
        if (left.scope() == scope) {
          facts.links.add(new ColumnLink(new ColumnRef(scope, left.alias() != null ? left.alias() : left.name(), name),
              new ColumnRef(scope, rightName, name)));
        }
      }
    }
  }

  /** Walks the subqueries of an expression (each once, in a new scope) and notes its parameters. */
  void scan(Expression e, int scope) {
    if (e == null) {
      return;
    }
    e.accept(new SubqueryVisitor<Void>() {
      @Override
      public <S> Void visit(ParenthesedSelect sub, S context) {
        if (facts.walked.add(sub)) {
          walkSelect(sub.getSelect(), facts.newScope(Math.max(scope, 0)));
        }
        return null;
      }

      @Override
      public <S> Void visit(Select sub, S context) {
        if (facts.walked.add(sub)) {
          walkSelect(sub instanceof ParenthesedSelect p ? p.getSelect() : sub, facts.newScope(Math.max(scope, 0)));
        }
        return null;
      }

      @Override
      public <S> Void visit(JdbcParameter p, S context) {
        facts.param(p.getIndex());
        return null;
      }
    }, null);
  }
}
