package dev.shardex.driver.sql;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * The one pass over a plain statement's text that finds the literals {@link SqlLexer#normalise}
 * takes out: numeric and string literals become {@code ?}; literals that cannot become a
 * parameter are kept: numbers glued to identifiers ({@code t1}), introduced strings
 * ({@code _utf8'x'}, {@code N'x'}), hex and bit literals, an INTERVAL's count (JSqlParser cannot
 * take "INTERVAL ? DAY AND ..."), a position in ORDER/GROUP BY (a ? there would sort by a
 * constant), numbers beyond any MySQL number. Comments (hints live there) and back-quoted names are
 * kept verbatim.
 *
 * <p>It copies nothing: the answer is a {@link PlainKey}, the text plus where its literals are, and
 * the normalised text's length and hash, summed up on the way.
 * What it looks back at (the sign of a minus, INTERVAL, a position after BY or a comma) it reads
 * from the text itself: a literal taken out ends in a quote, a digit or a dot, never in a letter,
 * an operator, a bracket or a comma, so the text reads there exactly as the normalised text would.
 */
final class LiteralScanner {
  private LiteralScanner() {}

  private static final boolean[] ASCII_IDENTIFIER = new boolean[128];
  /** ASCII characters that start nothing here (white space, operators, brackets, commas, ?): passed over. */
  private static final boolean[] ASCII_INERT = new boolean[128];

  static {
    for (char c = 0; c < 128; c++) {
      ASCII_IDENTIFIER[c] = Character.isLetterOrDigit(c) || c == '_' || c == '$';
      ASCII_INERT[c] = !ASCII_IDENTIFIER[c] && "`#-/'\".".indexOf(c) < 0;
    }
  }

  /** Where the literals of {@code sql} are, as the key of its normalised text. */
  static PlainKey scan(String sql) {
    int n = sql.length();
    int[] spans = new int[8];
    int count = 0;
    int taken = 0; // characters in the literals taken out
    int hash = 0; // String.hashCode of the normalised text so far
    boolean afterBy = false; // the last clause keyword seen was BY (ORDER BY, GROUP BY)
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c < 128 && ASCII_INERT[c]) {
        hash = 31 * hash + c;
        i++;
        continue;
      }
      int end;
      boolean literal = false;
      if (c == '`') {
        end = SqlLexer.quotedEnd(sql, i, '`');
      } else if ((c == '#' || c == '-' || c == '/') && (end = SqlLexer.commentEnd(sql, i)) > i) {
        // a comment: kept as written
      } else if (c == '\'' || c == '"') {
        end = SqlLexer.quotedEnd(sql, i, c);
        literal = i == 0 || !isIdentifierPart(sql.charAt(i - 1)); // else an introducer or x'..'/b'..': kept
      } else if (startsNumber(sql, i) || (c == '-' && startsNumber(sql, i + 1) && signAllowed(sql, i))) {
        boolean negative = c == '-';
        int from = negative ? i + 1 : i;
        end = numberEnd(sql, from);
        boolean glued = (i > 0 && (isIdentifierPart(sql.charAt(i - 1)) || sql.charAt(i - 1) == '.'))
            || (end < n && isIdentifierPart(sql.charAt(end)));
        if (glued || afterInterval(sql, i) || (afterBy && !negative && positional(sql, i))
            || (sql.charAt(from) == '0' && from + 1 < n && (sql.charAt(from + 1) == 'x' || sql.charAt(from + 1) == 'b'))) {
          end = Math.max(end, identifierEnd(sql, from));
        } else {
          literal = LiteralValues.isNumber(sql, from, end); // else beyond any MySQL number: the shard will say
        }
      } else if (isIdentifierPart(c)) {
        int bits = 0; // all the word's characters or-ed: under 128 when it is ASCII
        end = i;
        for (char w; end < n && isIdentifierPart(w = sql.charAt(end)); end++) {
          hash = 31 * hash + w;
          bits |= w;
        }
        int clause = bits >= 128 ? clause(sql.substring(i, end)) : end - i > 6 ? NOT_A_CLAUSE : clause(packed(sql, i, end));
        if (clause != NOT_A_CLAUSE) {
          afterBy = clause == BY;
        }
        i = end;
        continue;
      } else {
        end = i + 1;
      }
      if (literal) {
        spans = add(spans, count++, i, end);
        taken += end - i;
        hash = 31 * hash + '?';
      } else {
        hash = PlainKey.hash(hash, sql, i, end);
      }
      i = end;
    }
    return new PlainKey(sql, spans, count, n - taken + count, hash);
  }

  private static int[] add(int[] spans, int index, int start, int end) {
    int[] s = 2 * index + 2 <= spans.length ? spans : Arrays.copyOf(spans, spans.length * 2);
    s[2 * index] = start;
    s[2 * index + 1] = end;
    return s;
  }

  private static final int NOT_A_CLAUSE = -1;
  private static final int OTHER_CLAUSE = 0;
  private static final int BY = 1;
  private static final Set<String> CLAUSES = Set.of("SELECT", "FROM", "WHERE", "BY", "HAVING", "LIMIT", "OFFSET",
      "ON", "SET", "VALUES", "JOIN", "UNION", "WINDOW", "INTO", "AND", "OR");
  private static final long PACKED_BY = packed("BY", 0, 2);
  private static final long[] PACKED_CLAUSES = CLAUSES.stream().mapToLong(w -> packed(w, 0, w.length())).toArray();

  /** An ASCII word upper-cased, a byte a character (a keyword has at most 6). */
  private static long packed(String sql, int from, int to) {
    long p = 0;
    for (int k = from; k < to; k++) {
      char w = sql.charAt(k);
      p = (p << 8) | (w >= 'a' && w <= 'z' ? w - 32 : w);
    }
    return p;
  }

  /** Whether an ASCII word of at most 6 characters, packed upper-cased, is BY, another clause keyword or none. */
  private static int clause(long word) {
    if (word == PACKED_BY) {
      return BY;
    }
    for (long c : PACKED_CLAUSES) {
      if (c == word) {
        return OTHER_CLAUSE;
      }
    }
    return NOT_A_CLAUSE;
  }

  /** The same for any other word: upper-casing may change its length, so the JDK does it. */
  private static int clause(String word) {
    String upper = word.toUpperCase(Locale.ROOT);
    return upper.equals("BY") ? BY : CLAUSES.contains(upper) ? OTHER_CLAUSE : NOT_A_CLAUSE;
  }

  /** The last character before i that is not white space; -1 if none. */
  private static int lastNonSpace(String sql, int i) {
    int k = i - 1;
    while (k >= 0 && Character.isWhitespace(sql.charAt(k))) {
      k--;
    }
    return k;
  }

  /** A minus is a sign (not a subtraction) after an operator, an opening bracket or a comma. */
  private static boolean signAllowed(String sql, int i) {
    int k = lastNonSpace(sql, i);
    return k >= 0 && "=<>(,!".indexOf(sql.charAt(k)) >= 0;
  }

  /** In an ORDER/GROUP BY list, a number right after BY or a comma is a column position. */
  private static boolean positional(String sql, int i) {
    int k = lastNonSpace(sql, i);
    return k >= 0 && (sql.charAt(k) == ',' || (k >= 1 && sql.regionMatches(true, k - 1, "BY", 0, 2)));
  }

  private static boolean afterInterval(String sql, int i) {
    int k = lastNonSpace(sql, i);
    int end = k + 1;
    while (k >= 0 && Character.isLetter(sql.charAt(k))) {
      k--;
    }
    return end - (k + 1) == 8 && sql.regionMatches(true, k + 1, "INTERVAL", 0, 8);
  }

  private static int numberEnd(String sql, int i) {
    int n = sql.length();
    int j = i;
    boolean dot = false;
    while (j < n && (isDigit(sql.charAt(j)) || (sql.charAt(j) == '.' && !dot))) {
      dot |= sql.charAt(j) == '.';
      j++;
    }
    if (j < n && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
      int k = j + 1;
      if (k < n && (sql.charAt(k) == '+' || sql.charAt(k) == '-')) {
        k++;
      }
      if (k < n && isDigit(sql.charAt(k))) {
        j = k;
        while (j < n && isDigit(sql.charAt(j))) {
          j++;
        }
      }
    }
    return j;
  }

  private static boolean startsNumber(String sql, int i) {
    return i < sql.length() && (isDigit(sql.charAt(i))
        || (sql.charAt(i) == '.' && i + 1 < sql.length() && isDigit(sql.charAt(i + 1))));
  }

  private static boolean isDigit(char c) {
    return c < 128 ? c >= '0' && c <= '9' : Character.isDigit(c);
  }

  private static int identifierEnd(String sql, int i) {
    int j = i;
    while (j < sql.length() && isIdentifierPart(sql.charAt(j))) {
      j++;
    }
    return j;
  }

  static boolean isIdentifierPart(char c) {
    return c < 128 ? ASCII_IDENTIFIER[c] : Character.isLetterOrDigit(c);
  }
}
