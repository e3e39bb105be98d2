package dev.shardex.driver.sql;

import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * The tables a subquery reads itself (by alias or name) and their columns, so each column it names
 * can be told its own or an outer query's: MySQL resolves a bare name in the innermost scope that
 * has it, and so does {@link #own}.
 */
final class SubqueryScope {
  private final java.util.Map<String, String> names = new java.util.HashMap<>(); // alias or name -> table
  private final java.util.Map<String, List<String>> columns = new java.util.HashMap<>(); // table -> its columns
  private boolean sharded;

  private SubqueryScope() {}

  /** The scope of a plain SELECT over plain tables; null for a derived table, a table function or an unknown table's columns. */
  static SubqueryScope of(PlainSelect p, JoinSplitter.Catalog catalog) {
    SubqueryScope scope = new SubqueryScope();
    List<Object> items = new ArrayList<>();
    items.add(p.getFromItem());
    if (p.getJoins() != null) {
      for (Join j : p.getJoins()) {
        items.add(j.getFromItem());
      }
    }
    try {
      for (Object item : items) {
        if (!(item instanceof Table t)) {
          return null;
        }
        String table = JoinSplitter.unquote(t.getName());
        TableDef def = catalog.def(table);
        scope.sharded |= def != null && def.kind() != TableKind.GLOBAL; // SHARDED, or SINGLE (on its home shard only)
        scope.names.put(JoinSplitter.unquote(t.getAlias() != null ? t.getAlias().getName() : t.getName()), table);
        scope.columns.put(table, catalog.columns(table));
      }
    } catch (SQLException e) {
      return null;
    }
    return scope;
  }

  /**
   * Whether the subquery reads a declared table that is not on every shard, SHARDED or SINGLE (else,
   * GLOBAL or undeclared tables only, it runs wherever its outer statement does).
   */
  boolean sharded() {
    return sharded;
  }

  /** Whether a column reference resolves to one of the subquery's own tables. */
  boolean own(Column c) {
    return table(c) != null;
  }

  /** The subquery's own table a column reference reads, or null (an outer query's column). */
  String table(Column c) {
    String q = c.getTable() == null || c.getTable().getName() == null ? null : JoinSplitter.unquote(c.getTable().getName());
    if (q != null) {
      return names.get(q);
    }
    String name = JoinSplitter.unquote(c.getColumnName());
    for (java.util.Map.Entry<String, List<String>> t : columns.entrySet()) {
      if (t.getValue().contains(name)) {
        return t.getKey();
      }
    }
    return null;
  }

  /**
   * The columns of {@code e} that are not the subquery's own (an outer query's); a subquery nested
   * in {@code e} counts as one such reference, since what it reads is not followed.
   */
  List<Column> outer(Expression e) {
    List<Column> out = new ArrayList<>();
    if (e == null) {
      return out;
    }
    e.accept(new SubqueryVisitor<Void>() {
      @Override
      public <S> Void visit(Column c, S context) {
        if (!own(c)) {
          out.add(c);
        }
        return null;
      }

      @Override
      public <S> Void visit(ParenthesedSelect s, S context) {
        out.add(NESTED);
        return null;
      }

      @Override
      public <S> Void visit(net.sf.jsqlparser.statement.select.Select s, S context) {
        out.add(NESTED); // a subquery in an expression arrives here (its accept is Select's)
        return null;
      }
    }, null);
    return out;
  }

  /** Stands for a nested subquery among {@link #outer}'s references. */
  static final Column NESTED = new Column("__shx_nested_subquery");
}
