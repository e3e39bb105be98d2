package dev.shardex.driver.sql;

import java.util.Locale;

/** The AUTO_INCREMENT column of a CREATE TABLE's column list, found on the text (DDL is not parsed). */
public final class AutoIncrement {
  private AutoIncrement() {}

  /** The name of the column defined AUTO_INCREMENT, lower-cased, or null. */
  public static String column(String createTable) {
    String sql = createTable;
    int depth = 0;
    int element = -1;
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = SqlLexer.opaqueEnd(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      if (c == '(') {
        depth++;
        if (depth == 1) {
          element = i + 1;
        }
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 1) {
        element = i + 1;
      } else if (depth == 1 && Character.isLetter(c) && (i == 0 || !isWordPart(sql.charAt(i - 1)))) {
        int w = i;
        while (w < sql.length() && isWordPart(sql.charAt(w))) {
          w++;
        }
        if (sql.substring(i, w).toUpperCase(Locale.ROOT).equals("AUTO_INCREMENT") && element >= 0) {
          return firstName(sql, element);
        }
        i = w;
        continue;
      }
      i++;
    }
    return null;
  }

  private static String firstName(String sql, int from) {
    int i = SqlLexer.skipSpaceAndComments(sql, from);
    int end = sql.charAt(i) == '`' ? SqlLexer.quotedEnd(sql, i, '`') : i;
    while (end < sql.length() && isWordPart(sql.charAt(end))) {
      end++;
    }
    return SqlNames.unquote(sql.substring(i, end));
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
