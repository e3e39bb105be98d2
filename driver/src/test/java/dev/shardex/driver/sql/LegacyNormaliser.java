package dev.shardex.driver.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The normaliser as it was before the one-pass {@link LiteralScanner} (commit 69f9f29), kept
 * verbatim as the oracle {@link NormaliserEquivalenceTest} holds the new one to.
 */
final class LegacyNormaliser {
  private LegacyNormaliser() {}

  public static NormalizedSql normalise(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    List<Object> literals = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    String clause = "";
    while (i < n) {
      char c = sql.charAt(i);
      int end;
      if ((end = SqlLexer.commentEnd(sql, i)) > i || c == '`') {
        end = end > i ? end : SqlLexer.quotedEnd(sql, i, '`');
        out.append(sql, i, end);
        i = end;
      } else if (c == '\'' || c == '"') {
        end = SqlLexer.quotedEnd(sql, i, c);
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
