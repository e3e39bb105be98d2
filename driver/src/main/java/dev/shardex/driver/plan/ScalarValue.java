package dev.shardex.driver.plan;

import dev.shardex.driver.sql.SubqueryPullOut;
import dev.shardex.vocabulary.MysqlError;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A pulled-out scalar subquery's one value, bound into the statement (so routing and the server's
 * comparisons see a constant): as it came, or as its text cast back to its type where a bare
 * parameter would read back as another type ({@link #cast}). No row: NULL; a second row: MySQL's
 * error 1242.
 */
final class ScalarValue {
  private ScalarValue() {}

  /** {@code shown}: the value is a select item of its own, whose Java class must be the subquery column's too. */
  static SubqueryPullOut.Answer read(ResultSet rs, boolean shown) throws SQLException {
    String cast = cast(rs.getMetaData(), shown);
    boolean row = rs.next();
    Object value = !row ? null : cast == null ? rs.getObject(1) : wide(rs.getString(1), cast);
    if (row && rs.next()) {
      throw MysqlError.SUBQUERY_ROWS.exception("Subquery returns more than 1 row"); // MySQL's own error, as one server gives it
    }
    List<Object> values = new ArrayList<>();
    if (row) {
      values.add(value);
    }
    return new SubqueryPullOut.Answer(values, cast);
  }

  /**
   * The type a value is cast to: a temporal one always; shown as a column, a BIGINT (a small
   * literal would read back as an Integer) and a DOUBLE (a literal 1.5 is a DECIMAL) too. A
   * compared value stays a bare parameter otherwise, so routing can use it.
   */
  private static String cast(ResultSetMetaData m, boolean shown) throws SQLException {
    return switch (m.getColumnType(1)) {
      case Types.DATE -> "DATE";
      case Types.TIME -> "TIME" + fraction(m.getPrecision(1), 8);
      case Types.TIMESTAMP -> "DATETIME" + fraction(m.getPrecision(1), 19);
      case Types.BIGINT -> shown ? (m.isSigned(1) ? "SIGNED" : "UNSIGNED") : null;
      case Types.DOUBLE -> shown ? "DOUBLE" : null;
      default -> null;
    };
  }

  /**
   * A whole number's text as 20 digits: the server types CAST(x AS SIGNED) by x's length, INT for
   * a short one (read back as an Integer), BIGINT for a long one, as the subquery's column is.
   */
  private static String wide(String text, String cast) {
    if (text == null || !cast.endsWith("SIGNED")) {
      return text;
    }
    boolean negative = text.startsWith("-");
    String digits = negative ? text.substring(1) : text;
    return (negative ? "-" : "") + "0".repeat(Math.max(0, 20 - digits.length())) + digits;
  }

  /** The fractional seconds a temporal column's display width shows: "(3)" for 2026-01-01 00:00:00.000. */
  private static String fraction(int precision, int whole) {
    return precision > whole + 1 ? "(" + Math.min(6, precision - whole - 1) + ")" : "";
  }
}
