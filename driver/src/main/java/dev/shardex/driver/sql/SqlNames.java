package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;

/** Names as the catalog keys them: unquoted, lower-case. */
final class SqlNames {
  private SqlNames() {}

  static List<String> names(ExpressionList<Column> columns) {
    List<String> out = new ArrayList<>();
    if (columns != null) {
      for (Column c : columns) {
        out.add(columnName(c));
      }
    }
    return out;
  }

  static String columnName(Column c) {
    return unquote(c.getColumnName());
  }

  static String qualifier(Table t) {
    return unquote(t.getName());
  }

  /** A column as the walker records it: its scope, its qualifier (null when unqualified), its name. */
  static ColumnRef ref(Column c, int scope) {
    return new ColumnRef(scope, c.getTable() == null || c.getTable().getName() == null ? null : qualifier(c.getTable()),
        columnName(c));
  }

  static String unquote(String name) {
    if (name == null) {
      return null;
    }
    String s = name;
    if (s.length() > 1 && (s.charAt(0) == '`' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
      s = s.substring(1, s.length() - 1);
    }
    return s.toLowerCase(Locale.ROOT);
  }
}
