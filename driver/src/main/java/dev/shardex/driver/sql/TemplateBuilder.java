package dev.shardex.driver.sql;

import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * Walks one parsed statement into a {@link RouteTemplate}, one method per statement kind: every
 * table with its alias and SELECT scope, the conjuncts of every WHERE and ON that can route it,
 * and the shape of the top-level SELECT. The SELECT structure is {@link SelectWalker}'s, the
 * predicates and values {@link ConjunctReader}'s, INSERT and REPLACE {@link InsertTemplates}'; what
 * they find is gathered in {@link TemplateFacts}. One builder walks one statement.
 */
final class TemplateBuilder {
  private final TemplateFacts facts;
  private final SelectWalker walker;

  TemplateBuilder(Hints hints) {
    this.facts = new TemplateFacts(hints);
    this.walker = new SelectWalker(facts);
  }

  RouteTemplate select(Select select) {
    int scope = facts.newScope(-1);
    facts.rowScopes.add(scope);
    walker.walkSelect(select, scope);
    SelectShape shape = SelectShapes.shape(select).withRowScopes(facts.rowScopes).withKeyGrouped(facts.keyGrouped)
        .withWindows(facts.windows);
    if (facts.nestedNeedsMerge) {
      shape = shape.withNested();
    }
    return facts.build(StatementType.SELECT, -1, List.of(), List.of(), false, Map.of(), shape, false);
  }

  RouteTemplate insert(Insert insert) {
    return new InsertTemplates(facts, walker).insert(insert);
  }

  RouteTemplate upsert(Upsert upsert) {
    return new InsertTemplates(facts, walker).upsert(upsert);
  }

  RouteTemplate update(Update update) {
    int scope = facts.newScope(-1);
    int target = facts.addTable(update.getTable(), scope);
    walker.walkJoins(update.getStartJoins(), scope);
    if (update.getFromItem() != null) {
      walker.walkFrom(update.getFromItem(), scope);
    }
    walker.walkJoins(update.getJoins(), scope);
    Map<String, ValueSource> assignments = walker.reader.assignments(update.getUpdateSets(), scope);
    walker.reader.where(update.getWhere(), scope);
    return facts.build(StatementType.UPDATE, target, List.of(), List.of(), false, assignments, SelectShape.NONE,
        update.getLimit() != null || update.getOrderByElements() != null);
  }

  @SuppressWarnings("deprecation") // DELETE ... USING: JSqlParser 5.4 reads it only through the deprecated getter
  RouteTemplate delete(Delete delete) {
    int scope = facts.newScope(-1);
    int target;
    if (delete.getTables() != null && !delete.getTables().isEmpty()) {
      // DELETE t1, t2 FROM t1 JOIN t2 ...: the named tables are aliases of the FROM list.
      walker.walkFrom(delete.getTable(), scope);
      walker.walkJoins(delete.getJoins(), scope);
      target = facts.resolveTarget(delete.getTables().get(0));
    } else {
      target = facts.addTable(delete.getTable(), scope);
      if (delete.getUsingList() != null) {
        for (Table t : delete.getUsingList()) {
          facts.addTable(t, scope);
        }
      }
      walker.walkJoins(delete.getJoins(), scope);
    }
    walker.reader.where(delete.getWhere(), scope);
    return facts.build(StatementType.DELETE, target, List.of(), List.of(), false, Map.of(), SelectShape.NONE,
        delete.getLimit() != null || delete.getOrderByElements() != null);
  }
}
