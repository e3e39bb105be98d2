package dev.shardex.driver.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Cuts the key's IN list down to one shard's keys ({@code user_id IN (1, 2, 3)} becomes
 * {@code user_id IN (2)} on the shard that owns 2), on the text as sent, dropping the parameters of
 * the values it removes. It only acts when exactly one IN list on the key column with the expected
 * number of values is found; otherwise the statement goes whole, which is still correct (each
 * shard simply holds no rows for the other keys). The list is found once per text ({@link #of},
 * remembered): each shard's cut then copies spans, without reading the text again.
 */
public final class InListSplitter {
  /** Found lists by text, column and size (a text that has none too): a repeated statement is scanned once. */
  private static final Cache<Key, InListSplitter> FOUND = Caffeine.newBuilder().maximumSize(256).build();
  private static final InListSplitter NONE = new InListSplitter("", 0, 0, List.of());

  /** Hand-written equality: a record's own (through method handles) cost more than the lookup it keys, four times a batch. */
  private record Key(String sql, String column, int size) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && size == k.size && sql.equals(k.sql) && column.equals(k.column);
    }

    @Override
    public int hashCode() {
      return (sql.hashCode() * 31 + column.hashCode()) * 31 + size;
    }
  }

  private final String sql;
  private final int open;
  private final int close;
  /** Each value's text span, {@code [start, end)}. */
  private final int[] start;
  private final int[] end;
  /** Parameters before the list; per value its first parameter, count, and where its text starts without leading space. */
  private final int before;
  private final int[] firstParam;
  private final int[] paramCount;
  private final int[] trimmed;
  private final int after;

  private InListSplitter(String sql, int open, int close, List<int[]> items) {
    this.sql = sql;
    this.open = open;
    this.close = close;
    this.start = new int[items.size()];
    this.end = new int[items.size()];
    this.before = items.isEmpty() ? 0 : count(0, open + 1, 0);
    this.firstParam = new int[items.size()];
    this.paramCount = new int[items.size()];
    this.trimmed = new int[items.size()];
    int at = before;
    for (int v = 0; v < items.size(); v++) {
      int[] item = items.get(v);
      start[v] = item[0];
      end[v] = item[1];
      firstParam[v] = at;
      at = count(item[0], item[1], at);
      paramCount[v] = at - firstParam[v];
      int from = item[0];
      while (from < item[1] && Character.isWhitespace(sql.charAt(from))) {
        from++; // the first kept value starts right after the parenthesis
      }
      trimmed[v] = from;
    }
    this.after = items.isEmpty() ? 0 : count(close, sql.length(), 0);
  }

  /** The splitter for the key's IN list of {@code size} values, or null when it cannot be found for sure. */
  public static InListSplitter of(String sql, String keyColumn, int size) {
    InListSplitter found = FOUND.get(new Key(sql, keyColumn, size), k -> {
      InListSplitter f = find(sql, keyColumn, size);
      return f == null ? NONE : f;
    });
    return found == NONE ? null : found;
  }

  private static InListSplitter find(String sql, String keyColumn, int size) {
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
          if (list != null && list.start.length == size) {
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
    out.append(sql, 0, open + 1);
    int n = before + after;
    for (int v : keep) {
      n += paramCount[v];
    }
    int[] params = new int[n];
    int p = 0;
    for (int i = 0; i < before; i++) {
      params[p++] = i;
    }
    for (int k = 0; k < keep.length; k++) {
      int v = keep[k];
      if (k > 0) {
        out.append(',');
      }
      out.append(sql, k == 0 ? trimmed[v] : start[v], end[v]);
      for (int i = 0; i < paramCount[v]; i++) {
        params[p++] = firstParam[v] + i;
      }
    }
    out.append(sql, close, sql.length());
    int suffix = start.length == 0 ? before : firstParam[start.length - 1] + paramCount[start.length - 1];
    for (int i = 0; i < after; i++) {
      params[p++] = suffix + i;
    }
    return new ShardSql(out.toString(), params);
  }

  /** The parameter number after those in {@code [from, to)} (outside quotes and comments), counting from {@code paramAt}. */
  private int count(int from, int to, int paramAt) {
    return SqlLexer.copyCountingParameters(sql, from, to, null, paramAt, null, false);
  }
}
