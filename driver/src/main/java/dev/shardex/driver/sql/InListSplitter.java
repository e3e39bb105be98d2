package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Cuts the key's IN list down to one shard's keys ({@code user_id IN (1, 2, 3)} becomes
 * {@code user_id IN (2)} on the shard that owns 2), on the text as sent, dropping the parameters of
 * the values it removes. It only acts when exactly one IN list on the key column with the expected
 * number of values is found; otherwise the statement goes whole, which is still correct (each
 * shard simply holds no rows for the other keys).
 */
public final class InListSplitter {
  private final String sql;
  private final int open;
  private final int close;
  private final List<int[]> items = new ArrayList<>();

  private InListSplitter(String sql, int open, int close, List<int[]> items) {
    this.sql = sql;
    this.open = open;
    this.close = close;
    this.items.addAll(items);
  }

  /** The splitter for the key's IN list of {@code size} values, or null when it cannot be found for sure. */
  public static InListSplitter of(String sql, String keyColumn, int size) {
    InListSplitter found = null;
    int i = 0;
    String lower = keyColumn.toLowerCase(Locale.ROOT);
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = SqlLexer.commentEnd(sql, i);
      if (end == i && (c == '\'' || c == '"')) {
        end = SqlLexer.quotedEnd(sql, i, c);
      }
      if (end > i) {
        i = end;
        continue;
      }
      if (Character.isLetter(c) || c == '_' || c == '`') {
        int w = c == '`' ? SqlLexer.quotedEnd(sql, i, '`') : wordEnd(sql, i);
        String word = sql.substring(i, w).replace("`", "").toLowerCase(Locale.ROOT);
        if (word.equals(lower)) {
          InListSplitter list = listAfter(sql, w);
          if (list != null && list.items.size() == size) {
            if (found != null) {
              return null; // two candidate lists: do not guess
            }
            found = list;
          }
        }
        i = w;
        continue;
      }
      i++;
    }
    return found;
  }

  private static InListSplitter listAfter(String sql, int from) {
    int i = SqlLexer.skipSpaceAndComments(sql, from);
    if (!sql.regionMatches(true, i, "IN", 0, 2) || (i + 2 < sql.length() && Character.isLetterOrDigit(sql.charAt(i + 2)))) {
      return null;
    }
    i = SqlLexer.skipSpaceAndComments(sql, i + 2);
    if (i >= sql.length() || sql.charAt(i) != '(') {
      return null;
    }
    int open = i;
    List<int[]> items = new ArrayList<>();
    int start = i + 1;
    int depth = 0;
    for (i = open + 1; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        i = SqlLexer.quotedEnd(sql, i, c) - 1;
      } else if (c == '(') {
        if (depth == 0 && sql.substring(start, i).isBlank() && sql.regionMatches(true,
            SqlLexer.skipSpaceAndComments(sql, i + 1), "SELECT", 0, 6)) {
          return null; // IN (SELECT ...)
        }
        depth++;
      } else if (c == ')' && depth > 0) {
        depth--;
      } else if ((c == ',' || c == ')') && depth == 0) {
        items.add(new int[] {start, i});
        if (c == ')') {
          return new InListSplitter(sql, open, i, items);
        }
        start = i + 1;
      }
    }
    return null;
  }

  private static int wordEnd(String sql, int i) {
    int j = i;
    while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$')) {
      j++;
    }
    return j;
  }

  /** The statement with only the kept values (0-based, ascending) in the list, and the parameters it binds. */
  public ShardSql keep(int[] keep) {
    StringBuilder out = new StringBuilder(sql.length());
    List<Integer> params = new ArrayList<>();
    int paramAt = count(0, open + 1, params, out, 0, true);
    int k = 0;
    for (int v = 0; v < items.size(); v++) {
      boolean kept = k < keep.length && keep[k] == v;
      int from = items.get(v)[0];
      if (kept && k++ > 0) {
        out.append(',');
      } else if (kept) {
        while (from < items.get(v)[1] && Character.isWhitespace(sql.charAt(from))) {
          from++; // the first kept value starts right after the parenthesis
        }
      }
      paramAt = count(items.get(v)[0], from, params, out, paramAt, false);
      paramAt = count(from, items.get(v)[1], params, out, paramAt, kept);
    }
    count(close, sql.length(), params, out, paramAt, true);
    return new ShardSql(out.toString(), params.stream().mapToInt(Integer::intValue).toArray());
  }

  private int count(int from, int to, List<Integer> params, StringBuilder out, int paramAt, boolean copy) {
    return SqlLexer.copyCountingParameters(sql, from, to, out, paramAt, params, copy);
  }
}
