package dev.shardex.driver.plan;

import dev.shardex.driver.sql.JoinAggregates;
import dev.shardex.driver.sql.JoinSplitter;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Locale;

/**
 * The JSON_TABLE columns a derived table's rows are given back as, named by the derived table's own
 * column labels and typed so the server reads each value back as it was: a column the shard reports
 * as a table's column takes that column's catalog type and collation; any other (COUNT(*), SUM(x),
 * an expression) its result type where that is exact: whole numbers as BIGINT [UNSIGNED], DECIMAL
 * with its scale, DOUBLE, DATE, DATETIME and TIME with their fractional digits. A string the server
 * computed (its collation unknown here), a TIMESTAMP (read in the session's time zone) or anything
 * binary is refused by name.
 */
final class DerivedColumns {
  private DerivedColumns() {}

  /** The COLUMNS (...) list for a part's rows. */
  static String of(String part, List<String> names, ResultSetMetaData meta, JoinSplitter.Catalog catalog) throws SQLException {
    if (names != null && names.size() != meta.getColumnCount()) {
      throw refused(part, "list", "names " + names.size() + " columns for " + meta.getColumnCount(), "name each column once");
    }
    StringBuilder s = new StringBuilder();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      String label = names != null ? names.get(i - 1) : meta.getColumnLabel(i);
      if (label.length() > 64) {
        throw refused(part, label, "has a name longer than 64 characters", "give it a shorter alias");
      }
      String name = "`" + label.replace("`", "``") + "`";
      String catalogType = catalogType(meta, i, catalog);
      String definition = catalogType != null ? JoinAggregates.declare(name, catalogType, i - 1)
          : resultType(meta, i) == null ? null : name + " " + resultType(meta, i) + " PATH '$[" + (i - 1) + "]'";
      if (definition == null) {
        throw refused(part, label, "is of type " + (catalogType != null ? catalogType : meta.getColumnTypeName(i))
            + ", which its rows cannot carry to one shard exactly", "select a table column there, or CAST it to a number or date");
      }
      s.append(i == 1 ? "" : ", ").append(definition);
    }
    return s.toString();
  }

  /** The catalog type of the table column the shard says this is, or null (an expression, or a table the catalog lacks). */
  private static String catalogType(ResultSetMetaData meta, int i, JoinSplitter.Catalog catalog) {
    try {
      String table = meta.getTableName(i);
      String column = meta.getColumnName(i);
      if (table == null || table.isEmpty() || column == null || column.isEmpty() || catalog.def(table) == null) {
        return null;
      }
      return catalog.type(table.toLowerCase(Locale.ROOT), column.toLowerCase(Locale.ROOT));
    } catch (SQLException e) {
      return null;
    }
  }

  /** The type a computed column is declared as, where its result metadata says it exactly; else null. */
  private static String resultType(ResultSetMetaData meta, int i) throws SQLException {
    String name = meta.getColumnTypeName(i).toUpperCase(Locale.ROOT);
    int scale = Math.max(0, meta.getScale(i));
    switch (meta.getColumnType(i)) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT: // as the server types it (INT, BIGINT UNSIGNED...)
        String base = name.replace(" UNSIGNED", "").strip();
        return (base.matches("TINYINT|SMALLINT|MEDIUMINT|INT|INTEGER|BIGINT") ? base : "BIGINT")
            + (meta.isSigned(i) && !name.contains("UNSIGNED") ? "" : " UNSIGNED");
      case Types.DECIMAL, Types.NUMERIC:
        return scale > 38 ? null : "DECIMAL(" + Math.min(65, Math.max(meta.getPrecision(i), scale + 1)) + ", " + scale + ")";
      case Types.DOUBLE, Types.FLOAT:
        return "DOUBLE";
      case Types.REAL:
        return "FLOAT";
      case Types.DATE:
        return name.startsWith("YEAR") ? null : "DATE";
      case Types.TIME:
        return "TIME(" + Math.min(6, scale) + ")";
      case Types.TIMESTAMP:
        return name.startsWith("DATETIME") ? "DATETIME(" + Math.min(6, scale) + ")" : null;
      default:
        return null;
    }
  }

  private static SQLException refused(String part, String label, String what, String fix) {
    return ShardexError.CROSS_SHARD.exception("SELECT", "several", "column " + label + " of derived table " + part + " " + what,
        fix);
  }
}
