package dev.shardex.driver.sql;

import dev.shardex.vocabulary.ShardexError;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * Writes a prepared statement's parameter values into its text as SQL literals: for the session
 * statements the driver keeps and replays itself ({@code SET foreign_key_checks = ?, ...}, as
 * Flyway prepares it), which must be self-contained text on every shard connection they reach.
 */
public final class ParameterInliner {
  private ParameterInliner() {}

  /** The text with its i-th {@code ?} (outside quotes and comments) replaced by values[i] as a literal. */
  public static String inline(String sql, Object[] values, boolean[] set) throws SQLException {
    StringBuilder out = new StringBuilder(sql.length() + 16);
    int param = 0;
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = SqlLexer.opaqueEnd(sql, i);
      if (end > i) {
        out.append(sql, i, end);
        i = end;
        continue;
      }
      if (c == '?') {
        if (param >= set.length || !set[param]) {
          throw ShardexError.PARAMETER_UNBOUND.exception(param + 1, sql.strip());
        }
        out.append(literal(values[param], sql));
        param++;
      } else {
        out.append(c);
      }
      i++;
    }
    return out.toString();
  }

  static String literal(Object v, String sql) throws SQLException {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof Boolean b) {
      return b ? "1" : "0";
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof Number n) {
      return n.toString();
    }
    if (v instanceof String || v instanceof Character || v instanceof java.sql.Date || v instanceof java.sql.Time
        || v instanceof java.sql.Timestamp || v instanceof java.time.temporal.Temporal) {
      String text = v.toString();
      if (text.chars().allMatch(ch -> ch >= ' ' && ch != '\'' && ch != '\\' && ch < 127)) {
        return "'" + text + "'";
      }
      // Any other text as hex: the same string whatever the server's escaping mode (NO_BACKSLASH_ESCAPES or not).
      return "_utf8mb4 X'" + java.util.HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8)) + "'";
    }
    if (v instanceof byte[] bytes) {
      return "X'" + java.util.HexFormat.of().formatHex(bytes) + "'";
    }
    throw ShardexError.UNSUPPORTED.exception("a " + v.getClass().getSimpleName() + " parameter in the session statement '"
        + sql.strip() + "'", "set it as a number, a string or a boolean");
  }
}
