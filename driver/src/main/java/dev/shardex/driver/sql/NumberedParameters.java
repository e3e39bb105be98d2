package dev.shardex.driver.sql;

/**
 * Keeps track of {@code ?} markers through a rewrite: each is numbered {@code ?N} (1-based, in text
 * order) before parsing, so the rewritten statement, printed back, still says which parameter each
 * marker was wherever the rewrite moved it; printing turns them back into plain {@code ?} and
 * returns the original (0-based) index of each, in the new text's order.
 */
public final class NumberedParameters {
  private NumberedParameters() {}

  /** A printed statement with plain markers, and the original index of each marker, in order. */
  public record Text(String sql, int[] order) {}

  /** The statement with every {@code ?} numbered {@code ?N}; quoted text and comments kept as they are. */
  public static String number(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 16);
    int n = 0;
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = SqlLexer.opaqueEnd(sql, i);
      if (end > i) {
        out.append(sql, i, end);
        i = end;
      } else {
        out.append(c);
        if (c == '?') {
          out.append(++n);
        }
        i++;
      }
    }
    return out.toString();
  }

  /** Prints a statement parsed from {@link #number}'s text: plain markers, and which parameter each is. */
  public static Text print(Object statement) {
    String marked = statement.toString();
    StringBuilder out = new StringBuilder(marked.length());
    java.util.List<Integer> order = new java.util.ArrayList<>();
    int i = 0;
    while (i < marked.length()) {
      char c = marked.charAt(i);
      int end = SqlLexer.commentEnd(marked, i);
      if (end == i && (c == '\'' || c == '"' || c == '`')) {
        end = SqlLexer.quotedEnd(marked, i, c);
      }
      if (end > i) {
        out.append(marked, i, end);
        i = end;
      } else if (c == '?' && i + 1 < marked.length() && Character.isDigit(marked.charAt(i + 1))) {
        int j = i + 1;
        while (j < marked.length() && Character.isDigit(marked.charAt(j))) {
          j++;
        }
        order.add(Integer.parseInt(marked.substring(i + 1, j)) - 1);
        out.append('?');
        i = j;
      } else {
        out.append(c);
        i++;
      }
    }
    return new Text(out.toString(), order.stream().mapToInt(Integer::intValue).toArray());
  }
}
