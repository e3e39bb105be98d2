package dev.shardex.driver.plan;

import dev.shardex.driver.sql.SubqueryPullOut;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A pulled-out scalar subquery's one value, bound into the statement (so routing and the server's
 * comparisons see a constant): as it came, or, for a temporal one, as its text cast back to its type
 * (a bound string would type the column VARCHAR). No row: NULL; a second row: MySQL's error 1242.
 */
final class ScalarValue {
  private ScalarValue() {}

  static SubqueryPullOut.Answer read(ResultSet rs) throws SQLException {
    String cast = cast(rs.getMetaData());
    boolean row = rs.next();
    Object value = !row ? null : cast != null ? rs.getString(1) : rs.getObject(1);
    if (row && rs.next()) {
      throw new SQLException("Subquery returns more than 1 row", "21000", 1242); // MySQL's own error, as one server gives it
    }
    List<Object> values = new ArrayList<>();
    if (row) {
      values.add(value);
    }
    return new SubqueryPullOut.Answer(values, cast);
  }

  private static String cast(ResultSetMetaData m) throws SQLException {
    return switch (m.getColumnType(1)) {
      case Types.DATE -> "DATE";
      case Types.TIME -> "TIME" + fraction(m.getPrecision(1), 8);
      case Types.TIMESTAMP -> "DATETIME" + fraction(m.getPrecision(1), 19);
      default -> null;
    };
  }

  /** The fractional seconds a temporal column's display width shows: "(3)" for 2026-01-01 00:00:00.000. */
  private static String fraction(int precision, int whole) {
    return precision > whole + 1 ? "(" + Math.min(6, precision - whole - 1) + ")" : "";
  }
}
