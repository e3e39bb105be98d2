package dev.shardex.driver.sql;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;

/**
 * Rewrites a key-less read for one shard so it skips the rows a move keeps there without the shard
 * owning them (a pre-copy on the destination, the source's rows between flip and delete): each
 * SHARDED table of the key space in a FROM clause (also in UNION branches and derived tables) gets
 * {@code AND key NOT IN (...)}. Only while a move is under way; a text that does not parse is left
 * as it is.
 */
public final class HiddenKeys {
  private HiddenKeys() {}

  /**
   * The hidden key columns of a statement.
   *
   * @param keyColumns the key space's SHARDED tables: lower-case name -> key column
   * @param numeric whether keys are BIGINT (else STRING)
   */
  public static String exclude(String sql, Map<String, String> keyColumns, List<String> keys, boolean numeric) {
    Statement st;
    try {
      st = CCJSqlParserUtil.parse(sql);
    } catch (JSQLParserException | RuntimeException e) {
      return sql;
    }
    if (!(st instanceof Select select)) {
      return sql;
    }
    ParenthesedExpressionList<Expression> values = new ParenthesedExpressionList<>();
    for (String k : keys) {
      values.add(numeric ? new LongValue(k) : new StringValue(k.replace("'", "''")));
    }
    return visit(select, keyColumns, values) ? select.toString() : sql;
  }

  private static boolean visit(Select select, Map<String, String> keyColumns, ParenthesedExpressionList<Expression> values) {
    if (select instanceof PlainSelect ps) {
      boolean changed = filter(ps, ps.getFromItem(), keyColumns, values);
      if (ps.getJoins() != null) {
        for (Join j : ps.getJoins()) {
          changed |= filter(ps, j.getFromItem(), keyColumns, values);
        }
      }
      return changed;
    }
    if (select instanceof SetOperationList set) {
      boolean changed = false;
      for (Select branch : set.getSelects()) {
        changed |= visit(branch, keyColumns, values);
      }
      return changed;
    }
    if (select instanceof ParenthesedSelect p) {
      return visit(p.getSelect(), keyColumns, values);
    }
    return false;
  }

  private static boolean filter(PlainSelect ps, FromItem item, Map<String, String> keyColumns,
      ParenthesedExpressionList<Expression> values) {
    if (item instanceof ParenthesedSelect derived) {
      return visit(derived.getSelect(), keyColumns, values);
    }
    if (!(item instanceof Table table)) {
      return false;
    }
    String keyColumn = keyColumns.get(unquote(table.getName()).toLowerCase(Locale.ROOT));
    if (keyColumn == null) {
      return false;
    }
    Table qualifier = table.getAlias() != null ? new Table(table.getAlias().getName()) : new Table(table.getName());
    InExpression notIn = new InExpression(new Column(qualifier, "`" + keyColumn.replace("`", "``") + "`"), values);
    notIn.setNot(true);
    ps.setWhere(ps.getWhere() == null ? notIn
        : new AndExpression(new net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList<>(ps.getWhere()), notIn));
    return true;
  }

  private static String unquote(String name) {
    return name.length() > 1 && name.charAt(0) == '`' ? name.substring(1, name.length() - 1) : name;
  }
}
