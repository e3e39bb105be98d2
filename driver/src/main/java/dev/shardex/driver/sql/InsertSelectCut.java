package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Cuts an INSERT (or REPLACE) ... SELECT whose rows do not live where they go into the SELECT, read
 * as a statement of its own (at most {@code cap} rows, fetched with LIMIT cap+1 by
 * {@link StepLimit}), and the INSERT its rows are written by: {@code head} (INSERT [IGNORE] INTO t (cols)),
 * then {@code VALUES} rows, then {@code tail} (ON DUPLICATE KEY UPDATE ...). The rows then take the
 * normal INSERT path: split by key, sequence-filled, lookup indexes kept.
 *
 * <p>ON DUPLICATE KEY UPDATE may read the row it would insert ({@code VALUES(col)}) and the target
 * row's own columns; a column of the SELECT's tables there (MySQL allows it) would need the source
 * row, which the VALUES rows do not carry: refused by name.
 */
public final class InsertSelectCut {
  /** The cut; each {@code *Params} lists the statement's parameter each {@code ?} of that text binds, in order. */
  public record Plan(String select, int[] selectParams, String head, int[] headParams, String tail, int[] tailParams,
      String table) {}

  /** Why an INSERT ... SELECT is not cut (completes SHX1208's "is refused: ..."). */
  public static final class Refused extends Exception {
    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  private InsertSelectCut() {}

  public static Plan of(String sql, long cap, JoinSplitter.Catalog catalog) throws Refused, SQLException {
    Object parsed = Analyzer.parse(NumberedParameters.number(sql));
    Select select;
    Table table;
    List<UpdateSet> onDuplicate;
    if (parsed instanceof Insert insert && insert.getWithItemsList() == null) {
      select = insert.getSelect();
      table = insert.getTable();
      onDuplicate = insert.getDuplicateUpdateSets();
    } else if (parsed instanceof Upsert upsert) {
      select = upsert.getSelect();
      table = upsert.getTable();
      onDuplicate = upsert.getDuplicateUpdateSets();
    } else {
      throw new Refused("this form of INSERT ... SELECT is not read by the driver");
    }
    String printed = parsed.toString();
    String source = select.toString();
    int at = printed.lastIndexOf(source);
    if (at < 0) {
      throw new Refused("its SELECT could not be cut from the INSERT");
    }
    String target = JoinSplitter.unquote(table.getName());
    if (onDuplicate != null) {
      requireTargetOnly(onDuplicate, target, table, sourceTables(select), catalog);
    }
    NumberedParameters.Text head = NumberedParameters.print(printed.substring(0, at));
    NumberedParameters.Text tail = NumberedParameters.print(printed.substring(at + source.length()));
    StepLimit.capped(select, cap);
    NumberedParameters.Text read = NumberedParameters.print(select instanceof ParenthesedSelect p ? p.getSelect() : select);
    return new Plan(read.sql(), read.order(), head.sql(), head.order(), tail.sql(), tail.order(), target);
  }

  private static List<String> sourceTables(Select select) {
    List<String> out = new ArrayList<>();
    for (String name : new TablesNamesFinder<Void>().getTables((net.sf.jsqlparser.statement.Statement) select)) {
      out.add(JoinSplitter.unquote(name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name));
    }
    return out;
  }

  /** Every column ON DUPLICATE KEY UPDATE reads is inside VALUES(...) or a column of the target alone. */
  private static void requireTargetOnly(List<UpdateSet> sets, String target, Table table, List<String> sources,
      JoinSplitter.Catalog catalog) throws Refused, SQLException {
    List<Column> read = new ArrayList<>();
    boolean[] sub = {false};
    for (UpdateSet set : sets) {
      for (Object value : set.getValues()) {
        ((net.sf.jsqlparser.expression.Expression) value).accept(new SubqueryVisitor<Void>() {
          @Override
          public <S> Void visit(Function f, S context) {
            return f.getName().equalsIgnoreCase("VALUES") ? null : super.visit(f, context); // the row it would insert
          }

          @Override
          public <S> Void visit(Column c, S context) {
            read.add(c);
            return null;
          }

          @Override
          public <S> Void visit(ParenthesedSelect s, S context) {
            sub[0] = true;
            return null;
          }
        }, null);
      }
    }
    if (sub[0]) {
      throw new Refused("its ON DUPLICATE KEY UPDATE has a subquery");
    }
    String alias = table.getAlias() == null ? null : JoinSplitter.unquote(table.getAlias().getName());
    List<String> targetColumns = catalog.columns(target);
    for (Column c : read) {
      String name = JoinSplitter.unquote(c.getColumnName()).toLowerCase(Locale.ROOT);
      String q = c.getTable() == null || c.getTable().getName() == null ? null : JoinSplitter.unquote(c.getTable().getName());
      boolean targets = q == null ? targetColumns.contains(name) && !inSources(name, sources, catalog)
          : q.equalsIgnoreCase(target) || q.equalsIgnoreCase(alias);
      if (!targets) {
        throw new Refused("its ON DUPLICATE KEY UPDATE reads " + c + ", a column of the SELECT's tables, which the rows"
            + " inserted by key do not carry");
      }
    }
  }

  private static boolean inSources(String column, List<String> sources, JoinSplitter.Catalog catalog) throws SQLException {
    for (String t : sources) {
      if (catalog.def(t) == null || catalog.columns(t).contains(column)) {
        return true; // a table the catalog does not know may have it too
      }
    }
    return false;
  }
}
