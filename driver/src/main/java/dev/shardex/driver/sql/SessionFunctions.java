package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The functions that answer for the session ({@code LAST_INSERT_ID()}, {@code @@identity},
 * {@code @@last_insert_id}, {@code ROW_COUNT()}, {@code FOUND_ROWS()}): on a shard they would read
 * that physical session, which ran none of this logical connection's earlier statements (or ran
 * another connection's), so the driver answers them from its own values.
 *
 * <p>{@link #flags} reads a text once per template (on a cache miss); {@link #substitute} writes
 * the logical values into a text as literals, so the statement is right on whatever shard it runs
 * and a key given as {@code LAST_INSERT_ID()} routes by its value. A function that is a whole
 * select item keeps its label and type: {@code CAST(9 AS UNSIGNED) AS `LAST_INSERT_ID()`}.
 */
public final class SessionFunctions {
  /** The text reads a session value: substitute before routing. */
  public static final int READS = 1;
  /** {@code LAST_INSERT_ID(expr)}: the statement sets the value. */
  public static final int SETS_ID = 2;
  /** {@code SQL_CALC_FOUND_ROWS}: the statement sets FOUND_ROWS(). */
  public static final int CALC_FOUND_ROWS = 4;

  /** The logical connection's values, as SQL literals; a value the driver cannot know is refused by name. */
  public interface Values {
    String lastInsertId() throws SQLException;

    String rowCount() throws SQLException;

    String foundRows() throws SQLException;
  }

  private enum Kind { LAST_ID, ROW_COUNT, FOUND_ROWS }

  /** Where a clause of the select list ends: a whole select item is followed by one of these. */
  private static final Set<String> ITEM_END = Set.of(",", ")", ";", "", "FROM", "INTO", "WHERE", "UNION", "LIMIT",
      "ORDER", "GROUP", "HAVING", "FOR", "LOCK", "WINDOW", "EXCEPT", "INTERSECT");
  private static final Set<String> ITEM_START = Set.of("SELECT", ",", "DISTINCT", "ALL", "DISTINCTROW",
      "SQL_CALC_FOUND_ROWS", "SQL_NO_CACHE", "SQL_CACHE", "STRAIGHT_JOIN", "HIGH_PRIORITY", "SQL_SMALL_RESULT",
      "SQL_BIG_RESULT", "SQL_BUFFER_RESULT");
  private static final Set<String> CLAUSES = Set.of("SELECT", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
      "VALUES", "VALUE", "SET", "ON", "INTO", "UPDATE", "UNION", "USING", "DUPLICATE", "WINDOW", "FOR");

  private SessionFunctions() {}

  /** The {@link #READS}, {@link #SETS_ID} and {@link #CALC_FOUND_ROWS} bits of a text. */
  public static int flags(String sql) {
    int flags = 0;
    for (Token t : new Scanner(sql).tokens()) {
      flags |= t.flag;
    }
    return flags;
  }

  /** The text with every session-value read replaced by this connection's value. */
  public static String substitute(String sql, Values values) throws SQLException {
    StringBuilder out = new StringBuilder(sql.length() + 32);
    List<Token> tokens = new Scanner(sql).tokens();
    int copied = 0;
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (t.kind != null) {
        out.append(sql, copied, t.start).append(replacement(sql, t, values, tokens, i));
        copied = t.end;
      }
    }
    return out.append(sql, copied, sql.length()).toString();
  }

  private static String replacement(String sql, Token t, Values values, List<Token> tokens, int i) throws SQLException {
    String value = switch (t.kind) {
      case LAST_ID -> values.lastInsertId();
      case ROW_COUNT -> values.rowCount();
      case FOUND_ROWS -> values.foundRows();
    };
    if (!"SELECT".equals(t.clause) || i == 0 || !ITEM_START.contains(tokens.get(i - 1).text)) {
      return value;
    }
    String next = i + 1 < tokens.size() ? tokens.get(i + 1).text : "";
    String typed = "CAST(" + value + (t.kind == Kind.ROW_COUNT ? " AS SIGNED)" : " AS UNSIGNED)");
    return ITEM_END.contains(next) ? typed + " AS `" + sql.substring(t.start, t.end) + "`" : typed;
  }

  /** One significant token: a word upper-cased or a punctuation character, and the clause it sits in. */
  private static final class Token {
    final String text;
    final int start;
    final int end;
    final String clause;
    Kind kind;
    int flag;

    Token(String text, int start, int end, String clause) {
      this.text = text;
      this.start = start;
      this.end = end;
      this.clause = clause;
    }
  }

  /** Splits a text into tokens outside quotes and comments, knowing each bracket level's clause. */
  private static final class Scanner {
    private final String sql;
    private final List<String> clauses = new ArrayList<>(List.of(""));
    private final List<Token> tokens = new ArrayList<>();
    private int i;

    Scanner(String sql) {
      this.sql = sql;
    }

    List<Token> tokens() {
      while (i < sql.length()) {
        int end = SqlLexer.opaqueEnd(sql, i);
        if (end > i) {
          i = end;
        } else if (Character.isWhitespace(sql.charAt(i))) {
          i++;
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
        if (c == '(') {
          clauses.add("");
        } else if (c == ')' && clauses.size() > 1) {
          clauses.remove(clauses.size() - 1);
        }
        add(String.valueOf(c), i, i + 1);
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
      Token t = add(w, start, i);
      boolean qualified = start > 0 && sql.charAt(start - 1) == '.';
      int open = SqlLexer.skipSpaceAndComments(sql, i);
      if (qualified || open >= sql.length() || sql.charAt(open) != '(') {
        t.flag = w.equals("SQL_CALC_FOUND_ROWS") ? CALC_FOUND_ROWS : 0;
        return;
      }
      int close = SqlLexer.skipSpaceAndComments(sql, open + 1);
      boolean empty = close < sql.length() && sql.charAt(close) == ')';
      switch (w) {
        case "LAST_INSERT_ID" -> function(t, empty ? Kind.LAST_ID : null, empty ? READS : SETS_ID, close);
        case "ROW_COUNT" -> function(t, empty ? Kind.ROW_COUNT : null, empty ? READS : 0, close);
        case "FOUND_ROWS" -> function(t, empty ? Kind.FOUND_ROWS : null, empty ? READS : 0, close);
        default -> { }
      }
    }

    /** A function read: the token spans the call up to its ')' (the call is replaced whole). */
    private void function(Token t, Kind kind, int flag, int close) {
      t.flag = flag;
      if (kind != null) {
        Token whole = new Token(t.text, t.start, close + 1, t.clause);
        whole.kind = kind;
        whole.flag = flag;
        tokens.set(tokens.size() - 1, whole);
        i = close + 1;
      }
    }

    /** {@code @@identity}, {@code @@last_insert_id}, optionally {@code @@session.} or {@code @@local.}. */
    private void variable() {
      int start = i;
      i += 2;
      while (i < sql.length() && (isWordPart(sql.charAt(i)) || sql.charAt(i) == '.')) {
        i++;
      }
      String name = sql.substring(start + 2, i).toLowerCase(Locale.ROOT).replaceFirst("^(session|local)\\.", "");
      Token t = add("@@" + name.toUpperCase(Locale.ROOT), start, i);
      if (name.equals("identity") || name.equals("last_insert_id")) {
        t.kind = Kind.LAST_ID;
        t.flag = READS;
      }
    }

    private Token add(String text, int start, int end) {
      Token t = new Token(text, start, end, clauses.get(clauses.size() - 1));
      tokens.add(t);
      return t;
    }
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
