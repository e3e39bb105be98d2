package dev.shardex.driver.sql;

import java.math.BigDecimal;
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
   * Replaces numeric and string literals with {@code ?}. Literals that cannot become a parameter
   * are kept: numbers glued to identifiers ({@code t1}), introduced strings ({@code _utf8'x'},
   * {@code N'x'}), hex and bit literals. Comments are kept verbatim (hints live there).
   */
  public static NormalizedSql normalise(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    List<Object> literals = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    String clause = "";
    while (i < n) {
      char c = sql.charAt(i);
      int end;
      if ((end = commentEnd(sql, i)) > i || c == '`') {
        end = end > i ? end : quotedEnd(sql, i, '`');
        out.append(sql, i, end);
        i = end;
      } else if (c == '\'' || c == '"') {
        end = quotedEnd(sql, i, c);
        if (i > 0 && isIdentifierPart(sql.charAt(i - 1))) {
          out.append(sql, i, end); // introducer or x'..'/b'..' literal: keep as written
        } else {
          literals.add(unquote(sql, i, end));
          out.append('?');
        }
        i = end;
      } else if (startsNumber(sql, i) || (c == '-' && startsNumber(sql, i + 1) && signAllowed(out))) {
        boolean negative = c == '-';
        int from = negative ? i + 1 : i;
        end = numberEnd(sql, from);
        boolean glued = (i > 0 && (isIdentifierPart(sql.charAt(i - 1)) || sql.charAt(i - 1) == '.'))
            || (end < n && isIdentifierPart(sql.charAt(end)));
        if (glued || afterInterval(out) || (clause.equals("BY") && !negative && positional(out))
            || (sql.charAt(from) == '0' && from + 1 < n && (sql.charAt(from + 1) == 'x' || sql.charAt(from + 1) == 'b'))) {
          // kept as written: part of a name, an INTERVAL's count (JSqlParser cannot take
          // "INTERVAL ? DAY AND ..."), a position in ORDER/GROUP BY (a ? there would sort by a
          // constant), or a hex/bit literal
          end = Math.max(end, identifierEnd(sql, from));
          out.append(sql, i, end);
        } else {
          Object value = number(sql.substring(from, end));
          if (value == null) {
            out.append(sql, i, end); // beyond any MySQL number: the shard will say what it thinks of it
          } else {
            literals.add(negative ? negate(value) : value);
            out.append('?');
          }
        }
        i = end;
      } else if (isIdentifierPart(c)) {
        end = identifierEnd(sql, i);
        String word = sql.substring(i, end).toUpperCase(java.util.Locale.ROOT);
        if (CLAUSES.contains(word)) {
          clause = word;
        }
        out.append(sql, i, end);
        i = end;
      } else {
        out.append(c);
        i++;
      }
    }
    return new NormalizedSql(out.toString(), literals);
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
    int i = skipSpaceAndComments(sql, 0);
    while (i < sql.length() && sql.charAt(i) == '(') {
      i = skipSpaceAndComments(sql, i + 1);
    }
    int end = i;
    while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
      end++;
    }
    return sql.substring(i, end).toUpperCase(java.util.Locale.ROOT);
  }

  /** If a comment starts at i, the index just past it; else i. */
  /** The {@code ?} markers of a text, outside comments and quoted text. */
  public static int countParameters(String sql) {
    int n = 0;
    for (int i = 0; i < sql.length(); ) {
      int end = opaqueEnd(sql, i);
      if (end > i) {
        i = end;
      } else {
        n += sql.charAt(i++) == '?' ? 1 : 0;
      }
    }
    return n;
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

  private static String unquote(String sql, int start, int end) {
    char quote = sql.charAt(start);
    StringBuilder s = new StringBuilder(end - start);
    int last = Math.min(end - 1, sql.length());
    for (int j = start + 1; j < last; j++) {
      char c = sql.charAt(j);
      if (c == '\\' && j + 1 < last) {
        char e = sql.charAt(++j);
        s.append(switch (e) {
          case 'n' -> '\n';
          case 't' -> '\t';
          case 'r' -> '\r';
          case '0' -> '\0';
          case 'Z' -> (char) 26;
          default -> e;
        });
      } else if (c == quote && j + 1 < last && sql.charAt(j + 1) == quote) {
        s.append(c);
        j++;
      } else {
        s.append(c);
      }
    }
    return s.toString();
  }

  private static int numberEnd(String sql, int i) {
    int n = sql.length();
    int j = i;
    boolean dot = false;
    while (j < n && (Character.isDigit(sql.charAt(j)) || (sql.charAt(j) == '.' && !dot))) {
      dot |= sql.charAt(j) == '.';
      j++;
    }
    if (j < n && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
      int k = j + 1;
      if (k < n && (sql.charAt(k) == '+' || sql.charAt(k) == '-')) {
        k++;
      }
      if (k < n && Character.isDigit(sql.charAt(k))) {
        j = k;
        while (j < n && Character.isDigit(sql.charAt(j))) {
          j++;
        }
      }
    }
    return j;
  }

  private static final java.util.Set<String> CLAUSES = java.util.Set.of("SELECT", "FROM", "WHERE", "BY", "HAVING",
      "LIMIT", "OFFSET", "ON", "SET", "VALUES", "JOIN", "UNION", "WINDOW", "INTO", "AND", "OR");

  /** In an ORDER/GROUP BY list, a number right after BY or a comma is a column position. */
  private static boolean positional(StringBuilder out) {
    int k = out.length() - 1;
    while (k >= 0 && Character.isWhitespace(out.charAt(k))) {
      k--;
    }
    return k >= 0 && (out.charAt(k) == ',' || (k >= 1 && out.substring(k - 1, k + 1).equalsIgnoreCase("BY")));
  }

  private static boolean startsNumber(String sql, int i) {
    return i < sql.length() && (Character.isDigit(sql.charAt(i))
        || (sql.charAt(i) == '.' && i + 1 < sql.length() && Character.isDigit(sql.charAt(i + 1))));
  }

  /** A minus is a sign (not a subtraction) after an operator, an opening bracket or a comma. */
  private static boolean signAllowed(StringBuilder out) {
    for (int k = out.length() - 1; k >= 0; k--) {
      char p = out.charAt(k);
      if (!Character.isWhitespace(p)) {
        return "=<>(,!".indexOf(p) >= 0;
      }
    }
    return false;
  }

  private static boolean afterInterval(StringBuilder out) {
    int k = out.length() - 1;
    while (k >= 0 && Character.isWhitespace(out.charAt(k))) {
      k--;
    }
    int end = k + 1;
    while (k >= 0 && Character.isLetter(out.charAt(k))) {
      k--;
    }
    return out.substring(k + 1, end).equalsIgnoreCase("INTERVAL");
  }

  private static Object negate(Object value) {
    return value instanceof Long l ? (Object) (-l) : ((BigDecimal) value).negate();
  }

  /** The literal's value; null when it is no number MySQL could hold (an exponent past DOUBLE's range). */
  private static Object number(String text) {
    if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0 && text.length() < 19) {
      return Long.parseLong(text);
    }
    try {
      BigDecimal d = new BigDecimal(text);
      return Math.abs((long) d.scale()) > MAX_SCALE ? null : d;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static final int MAX_SCALE = 400;

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

  private static int identifierEnd(String sql, int i) {
    int j = i;
    while (j < sql.length() && isIdentifierPart(sql.charAt(j))) {
      j++;
    }
    return j;
  }

  private static boolean isIdentifierPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
