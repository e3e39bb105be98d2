package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * A small MySQL lexer that knows just enough to find literals, comments and statement boundaries:
 * quoted strings ('..', "..", with doubled quotes and backslash escapes), back-quoted identifiers,
 * comments (-- , #, C-style) and numbers. It never interprets the SQL; JSqlParser does that.
 */
public final class SqlLexer {
  private SqlLexer() {}

  /**
   * Replaces numeric and string literals with {@code ?} (what stays and why: {@link LiteralScanner}).
   * Comments are kept verbatim (hints live there).
   */
  public static NormalizedSql normalise(String sql) {
    PlainKey key = LiteralScanner.scan(sql);
    return new NormalizedSql(key.text(), java.util.Arrays.asList(key.values()));
  }

  /**
   * Copies sql[from, to) into {@code out} when {@code copy}, noting the 0-based index of every ?
   * parameter it copies (those it skips still count): how a rewrite that drops pieces of a
   * statement keeps track of which parameters the shorter text binds. Returns the next index.
   */
  static int copyCountingParameters(String sql, int from, int to, StringBuilder out, int paramAt, List<Integer> params,
      boolean copy) {
    int i = from;
    while (i < to) {
      char c = sql.charAt(i);
      int end = commentEnd(sql, i);
      if (end == i && (c == '\'' || c == '"' || c == '`')) {
        end = quotedEnd(sql, i, c);
      }
      if (end > i) {
        if (copy) {
          out.append(sql, i, end);
        }
        i = end;
        continue;
      }
      if (c == '?') {
        if (copy) {
          params.add(paramAt);
        }
        paramAt++;
      }
      if (copy) {
        out.append(c);
      }
      i++;
    }
    return paramAt;
  }

  /** Splits multi-statement text on top-level semicolons; empty pieces are dropped. */
  public static List<String> split(String sql) {
    List<String> parts = new ArrayList<>();
    int n = sql.length();
    int start = 0;
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      int end = commentEnd(sql, i);
      if (end > i) {
        i = end;
      } else if (c == '\'' || c == '"' || c == '`') {
        i = quotedEnd(sql, i, c);
      } else if (c == ';') {
        addPart(parts, sql.substring(start, i));
        start = ++i;
      } else {
        i++;
      }
    }
    addPart(parts, sql.substring(start));
    return parts;
  }

  private static void addPart(List<String> parts, String part) {
    if (!part.isBlank() && skipSpaceAndComments(part, 0) < part.length()) {
      parts.add(part.strip());
    }
  }

  /** The index of the first character that is neither white space nor inside a comment. */
  public static int skipSpaceAndComments(String sql, int from) {
    int i = from;
    while (i < sql.length()) {
      int end = commentEnd(sql, i);
      if (end > i) {
        i = end;
      } else if (Character.isWhitespace(sql.charAt(i))) {
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  /** The first keyword, upper-cased, skipping comments and opening parentheses; "" if none. */
  public static String firstKeyword(String sql) {
    int i = keywordStart(sql);
    return sql.substring(i, keywordEnd(sql, i)).toUpperCase(java.util.Locale.ROOT);
  }

  /** Where the first keyword starts: past white space, comments and opening parentheses. */
  static int keywordStart(String sql) {
    int i = skipSpaceAndComments(sql, 0);
    while (i < sql.length() && sql.charAt(i) == '(') {
      i = skipSpaceAndComments(sql, i + 1);
    }
    return i;
  }

  /** Where the letters from i end. */
  static int keywordEnd(String sql, int i) {
    int end = i;
    while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
      end++;
    }
    return end;
  }

  /** A statement as quoted in a message: spaces collapsed, at most 80 characters. */
  public static String abbreviate(String sql) {
    if (sql == null) {
      return "(no statement)";
    }
    String s = sql.strip().replaceAll("\\s+", " ");
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }

  /** The {@code ?} markers of a text, outside comments and quoted text. */
  public static int countParameters(String sql) {
    return markers(sql, false);
  }

  /**
   * Whether a {@code ?} marker is followed by a digit ({@code ?1}, also after spaces or comments:
   * {@code ? 0}), outside comments and quoted text: JSqlParser reads that as a numbered parameter,
   * which MySQL does not have.
   */
  public static boolean hasNumberedMarker(String sql) {
    return markers(sql, true) > 0;
  }

  private static int markers(String sql, boolean numberedOnly) {
    int n = 0;
    for (int i = 0; i < sql.length(); ) {
      int end = opaqueEnd(sql, i);
      if (end > i) {
        i = end;
      } else if (sql.charAt(i++) == '?'
          && (!numberedOnly || digitAt(sql, skipSpaceAndComments(sql, i)))) {
        n++;
      }
    }
    return n;
  }

  private static boolean digitAt(String sql, int i) {
    return i < sql.length() && Character.isDigit(sql.charAt(i));
  }

  /**
   * Where the comment or quoted literal/identifier starting at {@code i} ends, or {@code i} when
   * none starts there: the one way every text scanner here steps over what is not SQL structure.
   */
  static int opaqueEnd(String sql, int i) {
    int end = commentEnd(sql, i);
    char c = sql.charAt(i);
    if (end == i && (c == '\'' || c == '"' || c == '`')) {
      end = quotedEnd(sql, i, c);
    }
    return end;
  }

  static int commentEnd(String sql, int i) {
    int n = sql.length();
    char c = sql.charAt(i);
    if (c == '#' || (c == '-' && i + 2 <= n - 1 && sql.charAt(i + 1) == '-' && Character.isWhitespace(sql.charAt(i + 2)))
        || (c == '-' && i + 1 == n - 1 && sql.charAt(i + 1) == '-')) {
      int nl = sql.indexOf('\n', i);
      return nl < 0 ? n : nl + 1;
    }
    if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
      int close = sql.indexOf("*/", i + 2);
      return close < 0 ? n : close + 2;
    }
    return i;
  }

  static int quotedEnd(String sql, int i, char quote) {
    int n = sql.length();
    int j = i + 1;
    while (j < n) {
      char c = sql.charAt(j);
      if (c == '\\' && quote != '`') {
        j += 2;
      } else if (c == quote) {
        if (j + 1 < n && sql.charAt(j + 1) == quote) {
          j += 2;
        } else {
          return j + 1;
        }
      } else {
        j++;
      }
    }
    return n;
  }

  /**
   * The deepest nesting of brackets outside quotes and comments: the parser recurses once per
   * level, so the analyzer refuses a statement nested deeper than it can parse before it tries.
   */
  public static int maxDepth(String sql) {
    int depth = 0;
    int max = 0;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int end;
      if ((end = commentEnd(sql, i)) > i) {
        i = end;
      } else if (c == '`' || c == '\'' || c == '"') {
        i = quotedEnd(sql, i, c);
      } else {
        if (c == '(') {
          max = Math.max(max, ++depth);
        } else if (c == ')') {
          depth = Math.max(0, depth - 1);
        }
        i++;
      }
    }
    return max;
  }
}
