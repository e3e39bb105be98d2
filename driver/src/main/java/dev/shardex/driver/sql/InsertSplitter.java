package dev.shardex.driver.sql;

import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rewrites a multi-row INSERT/REPLACE ... VALUES (..), (..) to carry only some of its rows, for
 * the shard that owns them. Works on the text as sent (literals or {@code ?}), not a deparsed
 * tree, so what reaches MySQL is exactly what the application wrote minus the other rows; the
 * {@code ?}s of the dropped rows are dropped from the parameters too.
 */
public final class InsertSplitter {
  private final String sql;
  private final int prefixEnd;
  /** Index of the ')' closing the column list, or -1 when the INSERT names no columns. */
  private final int columnsClose;
  private final List<int[]> rows = new ArrayList<>();
  private final int suffixStart;

  private InsertSplitter(String sql) throws SQLException {
    this.sql = sql;
    int values = findValues(sql);
    if (values < 0) {
      throw ShardexError.UNSUPPORTED.exception("splitting this INSERT", "only INSERT ... VALUES (...), (...) can be split");
    }
    prefixEnd = values;
    int open = sql.indexOf('(');
    columnsClose = open >= 0 && open < values ? closing(sql, open) - 1 : -1;
    int i = values;
    while (true) {
      i = SqlLexer.skipSpaceAndComments(sql, i);
      if (i >= sql.length() || sql.charAt(i) != '(') {
        break;
      }
      int end = closing(sql, i);
      rows.add(new int[] {i, end});
      i = SqlLexer.skipSpaceAndComments(sql, end);
      if (i < sql.length() && sql.charAt(i) == ',') {
        i++;
      } else {
        break;
      }
    }
    suffixStart = rows.isEmpty() ? values : rows.get(rows.size() - 1)[1];
  }

  public static InsertSplitter of(String sql) throws SQLException {
    return new InsertSplitter(sql);
  }

  /** Whether this is an {@code INSERT ... SET col = v, ...} (no VALUES list to split). */
  public static boolean isSetForm(String sql) {
    return findValues(sql) < 0 && wordEnd(sql, 0, "SET") >= 0;
  }

  public int rowCount() {
    return rows.size();
  }

  /** The statement with only the given rows (0-based, ascending) and the parameters they use. */
  public ShardSql keep(int[] keep) {
    return rewrite(keep, null, null);
  }

  /**
   * The statement with only the given rows ({@code null}: all), and, when {@code column} is set,
   * that column added to the column list with {@code ids[r]} appended to row r.
   */
  public ShardSql rewrite(int[] keep, String column, long[] ids) {
    return rewrite(keep, column, ids, -1);
  }

  /** As above; with {@code replaceAt >= 0} the column is already listed and row r's value there becomes {@code ids[r]}. */
  public ShardSql rewrite(int[] keep, String column, long[] ids, int replaceAt) {
    if (keep == null) {
      keep = java.util.stream.IntStream.range(0, rows.size()).toArray();
    }
    if (column != null && replaceAt >= 0) {
      return withValues(keep, replaceAt, ids);
    }
    if (column != null) {
      return withColumn(keep, column, ids);
    }
    return share(keep);
  }

  /** The kept rows with the value at {@code at} (a NULL or a ? bound to NULL) replaced by the row's id. */
  private ShardSql withValues(int[] keep, int at, long[] ids) {
    StringBuilder text = new StringBuilder(sql.length());
    List<Integer> params = new ArrayList<>();
    int paramAt = appendCounting(text, 0, prefixEnd, 0, params, true);
    int k = 0;
    for (int r = 0; r < rows.size(); r++) {
      int[] span = rows.get(r);
      boolean kept = k < keep.length && keep[k] == r;
      if (kept) {
        text.append(k++ == 0 ? " (" : ", (");
      }
      List<int[]> items = items(span);
      for (int v = 0; v < items.size(); v++) {
        int[] item = items.get(v);
        if (kept && v > 0) {
          text.append(',');
        }
        boolean filled = v == at && ids[r] != Long.MIN_VALUE; // Long.MIN_VALUE: the row keeps its own value
        paramAt = appendCounting(text, item[0], item[1], paramAt, params, kept && !filled);
        if (kept && filled) {
          text.append(v == 0 ? "" : " ").append(ids[r]);
        }
      }
      if (kept) {
        text.append(')');
      }
    }
    appendCounting(text, suffixStart, sql.length(), paramAt, params, true);
    return new ShardSql(text.toString(), params.stream().mapToInt(Integer::intValue).toArray());
  }

  /** The spans of a row's values: between its parentheses, split at its top-level commas. */
  private List<int[]> items(int[] span) {
    List<int[]> out = new ArrayList<>();
    int depth = 0;
    int start = span[0] + 1;
    int i = start;
    while (i < span[1] - 1) {
      char c = sql.charAt(i);
      int end = SqlLexer.opaqueEnd(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        out.add(new int[] {start, i});
        start = i + 1;
      }
      i++;
    }
    out.add(new int[] {start, span[1] - 1});
    return out;
  }

  private ShardSql withColumn(int[] keep, String column, long[] ids) {
    StringBuilder head = new StringBuilder(sql.substring(0, columnsClose)).append(", `").append(column).append('`')
        .append(sql, columnsClose, prefixEnd);
    StringBuilder rowsText = new StringBuilder();
    List<Integer> params = new ArrayList<>();
    int paramAt = appendCounting(new StringBuilder(), 0, prefixEnd, 0, params, true);
    int k = 0;
    for (int r = 0; r < rows.size(); r++) {
      int[] span = rows.get(r);
      boolean kept = k < keep.length && keep[k] == r;
      StringBuilder row = new StringBuilder();
      paramAt = appendCounting(row, span[0], span[1], paramAt, params, kept);
      if (kept) {
        row.setLength(row.length() - 1); // the row's closing ')'
        rowsText.append(k++ == 0 ? " " : ", ").append(row).append(", ").append(ids[r]).append(')');
      }
    }
    StringBuilder tail = new StringBuilder();
    appendCounting(tail, suffixStart, sql.length(), paramAt, params, true);
    return new ShardSql(head + rowsText.toString() + tail, params.stream().mapToInt(Integer::intValue).toArray());
  }

  private ShardSql share(int[] keep) {
    StringBuilder text = new StringBuilder(sql.length());
    List<Integer> params = new ArrayList<>();
    int next = appendCounting(text, 0, prefixEnd, 0, params, true);
    int paramAt = next;
    int k = 0;
    for (int r = 0; r < rows.size(); r++) {
      int[] span = rows.get(r);
      boolean kept = k < keep.length && keep[k] == r;
      if (kept) {
        if (k > 0) {
          text.append(", ");
        } else {
          text.append(' ');
        }
        k++;
      }
      paramAt = appendCounting(text, span[0], span[1], paramAt, params, kept);
    }
    appendCounting(text, suffixStart, sql.length(), paramAt, params, true);
    return new ShardSql(text.toString(), params.stream().mapToInt(Integer::intValue).toArray());
  }

  private int appendCounting(StringBuilder out, int from, int to, int paramAt, List<Integer> params, boolean copy) {
    return SqlLexer.copyCountingParameters(sql, from, to, out, paramAt, params, copy);
  }

  /** The index just past the top-level VALUES/VALUE keyword, or -1. */
  private static int findValues(String sql) {
    return wordEnd(sql, 0, "VALUES", "VALUE");
  }

  /** The index just past the first of {@code words} (upper case) outside brackets, quotes and comments from {@code from}, or -1. */
  static int wordEnd(String sql, int from, String... words) {
    int depth = 0;
    int i = from;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = SqlLexer.commentEnd(sql, i);
      if (end > i) {
        i = end;
      } else if (c == '\'' || c == '"' || c == '`') {
        i = SqlLexer.quotedEnd(sql, i, c);
      } else if (c == '(') {
        depth++;
        i++;
      } else if (c == ')') {
        depth--;
        i++;
      } else if (Character.isLetter(c) && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)))) {
        int w = i;
        while (w < sql.length() && (Character.isLetterOrDigit(sql.charAt(w)) || sql.charAt(w) == '_')) {
          w++;
        }
        String word = sql.substring(i, w).toUpperCase(Locale.ROOT);
        if (depth == 0 && java.util.Arrays.asList(words).contains(word)) {
          return w;
        }
        i = w;
      } else {
        i++;
      }
    }
    return -1;
  }

  private static int closing(String sql, int open) {
    int depth = 0;
    int i = open;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = SqlLexer.commentEnd(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      if (c == '\'' || c == '"' || c == '`') {
        i = SqlLexer.quotedEnd(sql, i, c);
        continue;
      }
      if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }
}
