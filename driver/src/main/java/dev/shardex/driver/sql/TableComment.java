package dev.shardex.driver.sql;

import java.util.Locale;

/**
 * Finds a CREATE TABLE's own {@code COMMENT [=] 'text'} option: a COMMENT outside the column list's
 * parentheses (a column's COMMENT is inside them), outside quotes and comments.
 */
final class TableComment {
  private TableComment() {}

  /** The table comment's text, or null when the statement has none. */
  static String of(String sql) {
    int depth = 0;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int end = SqlLexer.opaqueEnd(sql, i);
      if (end > i) {
        i = end;
      } else if (c == '(') {
        depth++;
        i++;
      } else if (c == ')') {
        depth--;
        i++;
      } else if (Character.isLetter(c)) {
        int w = i;
        while (w < n && (Character.isLetterOrDigit(sql.charAt(w)) || sql.charAt(w) == '_' || sql.charAt(w) == '$')) {
          w++;
        }
        boolean word = i == 0 || !(Character.isLetterOrDigit(sql.charAt(i - 1)) || sql.charAt(i - 1) == '_');
        if (word && depth == 0 && sql.substring(i, w).toUpperCase(Locale.ROOT).equals("COMMENT")) {
          String text = stringAfter(sql, w);
          if (text != null) {
            return text;
          }
        }
        i = w;
      } else {
        i++;
      }
    }
    return null;
  }

  /** The string literal after an optional '=' at {@code from}, unquoted; null if none. */
  private static String stringAfter(String sql, int from) {
    int i = SqlLexer.skipSpaceAndComments(sql, from);
    if (i < sql.length() && sql.charAt(i) == '=') {
      i = SqlLexer.skipSpaceAndComments(sql, i + 1);
    }
    if (i >= sql.length() || (sql.charAt(i) != '\'' && sql.charAt(i) != '"')) {
      return null;
    }
    char quote = sql.charAt(i);
    int end = SqlLexer.quotedEnd(sql, i, quote);
    String body = sql.substring(i + 1, Math.max(i + 1, end - 1));
    return body.replace(String.valueOf(quote) + quote, String.valueOf(quote)).replace("\\" + quote, String.valueOf(quote));
  }
}
