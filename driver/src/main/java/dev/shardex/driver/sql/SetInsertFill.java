package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Fills the sequence-filled column of an {@code INSERT ... SET a = x, b = y} (one row, no VALUES
 * list): the assignment that gives it NULL gets the id instead, or the assignment is added when
 * the statement omits the column. The rest of the text is sent as written.
 */
public final class SetInsertFill {
  private SetInsertFill() {}

  /** The statement with {@code column} set to {@code id}; {@code at} is its assignment's position, or -1 to add one. */
  public static ShardSql fill(String sql, String column, long id, int at) {
    int setEnd = InsertSplitter.wordEnd(sql, 0, "SET");
    int end = InsertSplitter.wordEnd(sql, setEnd, "ON");
    end = end < 0 ? trimmedEnd(sql) : end - 2;
    List<int[]> assignments = split(sql, setEnd, end);
    StringBuilder text = new StringBuilder(sql.length() + 24);
    List<Integer> params = new ArrayList<>();
    if (at < 0 || at >= assignments.size()) {
      int last = assignments.get(assignments.size() - 1)[1];
      int next = SqlLexer.copyCountingParameters(sql, 0, last, text, 0, params, true);
      text.append(", `").append(column).append("` = ").append(id);
      SqlLexer.copyCountingParameters(sql, last, sql.length(), text, next, params, true);
    } else {
      int[] span = assignments.get(at);
      int value = sql.indexOf('=', span[0]) + 1;
      int next = SqlLexer.copyCountingParameters(sql, 0, value, text, 0, params, true);
      next = SqlLexer.copyCountingParameters(sql, value, span[1], text, next, params, false);
      text.append(' ').append(id);
      SqlLexer.copyCountingParameters(sql, span[1], sql.length(), text, next, params, true);
    }
    return new ShardSql(text.toString(), params.stream().mapToInt(Integer::intValue).toArray());
  }

  private static int trimmedEnd(String sql) {
    int end = sql.length();
    while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
      end--;
    }
    return end;
  }

  /** The spans of the assignments in sql[from, to), split at top-level commas. */
  private static List<int[]> split(String sql, int from, int to) {
    List<int[]> out = new ArrayList<>();
    int depth = 0;
    int start = from;
    int i = from;
    while (i < to) {
      int skip = SqlLexer.opaqueEnd(sql, i);
      if (skip > i) {
        i = skip;
        continue;
      }
      char c = sql.charAt(i);
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      if (c == ',' && depth == 0) {
        out.add(new int[] {start, i});
        start = i + 1;
      }
      i++;
    }
    out.add(new int[] {start, to});
    return out;
  }
}
