package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The UPDATE that an {@code INSERT ... ON DUPLICATE KEY UPDATE} row becomes when the row it collides
 * with belongs to another shard key (so lives on that key's shard): the statement's own assignments,
 * as written, with {@code VALUES(col)} and MySQL 8's row alias ({@code ... AS new ... new.col})
 * replaced by the inserted row's value of {@code col}, run on that row alone:
 * {@code UPDATE t SET <assignments> WHERE col = ? AND key = ?}. A bare column name in the
 * assignments names the existing row's value in both statements, so the two mean the same.
 */
public record UpsertUpdate(String text, List<Object> binds) {

  /** The inserted row's value of a column; refuses (by name) one it cannot give exactly. */
  @FunctionalInterface
  public interface RowValues {
    Object of(String column) throws SQLException;
  }

  /**
   * The UPDATE of the row of {@code table} whose {@code column} is {@code value} under shard key
   * {@code key}; {@code params} are the statement's parameters (a plain statement's text has none).
   */
  public static UpsertUpdate of(String sql, Object[] params, RowValues row, String table, String column, Object value,
      String keyColumn, Object key) throws SQLException {
    int duplicate = LookupSelect.topLevelWord(sql, "DUPLICATE", 0);
    int update = duplicate < 0 ? -1 : LookupSelect.topLevelWord(sql, "UPDATE", duplicate);
    if (update < 0) {
      throw new IllegalArgumentException("no ON DUPLICATE KEY UPDATE clause in " + SqlLexer.abbreviate(sql));
    }
    int start = update + "UPDATE".length();
    String alias = rowAlias(sql.substring(0, duplicate));
    List<Object> binds = new ArrayList<>();
    String set = rewrite(sql, start, end(sql), SqlLexer.countParameters(sql.substring(0, start)), params, row, alias, binds);
    binds.add(value);
    binds.add(key);
    // a line comment at the end of the assignments would swallow the WHERE: it then starts a line
    String gap = set.contains("--") || set.contains("#") ? "\n" : " ";
    return new UpsertUpdate("UPDATE " + quote(table) + " SET " + set.strip() + gap + "WHERE " + quote(column) + " = ? AND "
        + quote(keyColumn) + " = ?", java.util.Collections.unmodifiableList(binds));
  }

  /** Where the statement ends: before trailing semicolons and white space. */
  private static int end(String sql) {
    int end = sql.length();
    while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
      end--;
    }
    return end;
  }

  /** The name of MySQL 8's row alias ({@code VALUES (...) AS new ON DUPLICATE ...}), or null. */
  private static String rowAlias(String head) {
    var m = java.util.regex.Pattern.compile("(?is)\\bAS\\s+(`?)([\\w$]+)\\1\\s+ON\\s*$").matcher(head);
    return m.find() ? m.group(2).toLowerCase(Locale.ROOT) : null;
  }

  private static String rewrite(String sql, int from, int to, int paramAt, Object[] params, RowValues row, String alias,
      List<Object> binds) throws SQLException {
    StringBuilder out = new StringBuilder(to - from);
    int i = from;
    while (i < to) {
      int[] ref = rowReference(sql, i, alias);
      if (ref != null) {
        binds.add(row.of(sql.substring(ref[1], ref[2]).replace("`", "").toLowerCase(Locale.ROOT)));
        out.append('?');
        i = ref[0];
        continue;
      }
      int opaque = SqlLexer.opaqueEnd(sql, i);
      if (opaque > i) {
        out.append(sql, i, opaque);
        i = opaque;
        continue;
      }
      char c = sql.charAt(i);
      if (c == '?') {
        binds.add(params == null || paramAt >= params.length ? null : params[paramAt]);
        paramAt++;
      }
      int word = wordEnd(sql, i);
      out.append(sql, i, word);
      i = word;
    }
    return out.toString();
  }

  /**
   * {@code VALUES(col)} or {@code alias.col} starting at {@code i}: {end, column start, column end};
   * null for anything else.
   */
  private static int[] rowReference(String sql, int i, String alias) {
    if (i > 0 && (partOfName(sql.charAt(i - 1)) || sql.charAt(i - 1) == '.')) {
      return null;
    }
    int[] name = name(sql, i);
    if (name == null) {
      return null;
    }
    String word = sql.substring(name[0], name[1]).replace("`", "").toLowerCase(Locale.ROOT);
    int next = SqlLexer.skipSpaceAndComments(sql, name[1]);
    if (word.equals("values") && sql.charAt(name[0]) != '`' && next < sql.length() && sql.charAt(next) == '(') {
      int[] column = name(sql, SqlLexer.skipSpaceAndComments(sql, next + 1));
      int close = column == null ? -1 : SqlLexer.skipSpaceAndComments(sql, column[1]);
      return close >= 0 && close < sql.length() && sql.charAt(close) == ')' ? new int[] {close + 1, column[0], column[1]} : null;
    }
    if (word.equals(alias) && next == name[1] && next < sql.length() && sql.charAt(next) == '.') {
      int[] column = name(sql, next + 1);
      return column == null ? null : new int[] {column[1], column[0], column[1]};
    }
    return null;
  }

  /** A bare or back-quoted name starting at {@code i}: {start, end}; null when none starts there. */
  private static int[] name(String sql, int i) {
    if (i >= sql.length()) {
      return null;
    }
    if (sql.charAt(i) == '`') {
      return new int[] {i, SqlLexer.quotedEnd(sql, i, '`')};
    }
    if (!Character.isLetter(sql.charAt(i)) && sql.charAt(i) != '_' && sql.charAt(i) != '$') {
      return null;
    }
    return new int[] {i, wordEnd(sql, i)};
  }

  /** The end of the name or number at {@code i}, or {@code i + 1} for any other character. */
  private static int wordEnd(String sql, int i) {
    int j = i;
    while (j < sql.length() && partOfName(sql.charAt(j))) {
      j++;
    }
    return j == i ? i + 1 : j;
  }

  private static boolean partOfName(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
