package dev.shardex.driver.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A text as significant tokens (comments dropped), each knowing its bracket depth and the clause
 * it sits in at that depth (SELECT, FROM, WHERE, ...): enough for {@link SessionFunctions} to find
 * its functions and the select items holding them, without a parse. Brackets belong to the level
 * outside them. Quoted strings and identifiers are one token each ({@code '} or {@code `} first).
 */
final class ClauseTokens {
  /** One token: a word upper-cased, a {@code @@variable}, a quoted span or a punctuation character. */
  static final class Token {
    final String text;
    final int start;
    final int end;
    final int depth;
    final String clause;

    Token(String text, int start, int end, int depth, String clause) {
      this.text = text;
      this.start = start;
      this.end = end;
      this.depth = depth;
      this.clause = clause;
    }

    boolean quoted() {
      return text.startsWith("'") || text.startsWith("\"") || text.startsWith("`");
    }
  }

  private static final Set<String> CLAUSES = Set.of("SELECT", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
      "VALUES", "VALUE", "SET", "ON", "INTO", "UPDATE", "UNION", "USING", "DUPLICATE", "WINDOW", "FOR");

  private final String sql;
  private final List<String> clauses = new ArrayList<>(List.of(""));
  private final List<Token> tokens = new ArrayList<>();
  private int i;

  private ClauseTokens(String sql) {
    this.sql = sql;
  }

  static List<Token> of(String sql) {
    return new ClauseTokens(sql).scan();
  }

  private List<Token> scan() {
    while (i < sql.length()) {
      int comment = SqlLexer.commentEnd(sql, i);
      int opaque = SqlLexer.opaqueEnd(sql, i);
      if (comment > i || Character.isWhitespace(sql.charAt(i))) {
        i = Math.max(comment, i + 1);
      } else if (opaque > i) {
        add(sql.substring(i, i + 1), i, opaque);
        i = opaque;
      } else {
        next();
      }
    }
    return tokens;
  }

  private void next() {
    char c = sql.charAt(i);
    if (c == '@' && sql.startsWith("@@", i)) {
      variable();
    } else if (isWordPart(c)) {
      word();
    } else {
      if (c == ')' && clauses.size() > 1) {
        clauses.remove(clauses.size() - 1);
      }
      add(String.valueOf(c), i, i + 1);
      if (c == '(') {
        clauses.add("");
      }
      i++;
    }
  }

  private void word() {
    int start = i;
    while (i < sql.length() && isWordPart(sql.charAt(i))) {
      i++;
    }
    String w = sql.substring(start, i).toUpperCase(Locale.ROOT);
    if (CLAUSES.contains(w)) {
      clauses.set(clauses.size() - 1, w);
    }
    add(start > 0 && sql.charAt(start - 1) == '.' ? "." + w : w, start, i);
  }

  /** {@code @@name}, {@code @@session.name}, {@code @@local.name}: one token, {@code @@NAME}. */
  private void variable() {
    int start = i;
    i += 2;
    while (i < sql.length() && (isWordPart(sql.charAt(i)) || sql.charAt(i) == '.')) {
      i++;
    }
    String name = sql.substring(start + 2, i).toUpperCase(Locale.ROOT).replaceFirst("^(SESSION|LOCAL)\\.", "");
    add("@@" + name, start, i);
  }

  private void add(String text, int start, int end) {
    tokens.add(new Token(text, start, end, clauses.size() - 1, clauses.get(clauses.size() - 1)));
  }

  static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
