package dev.shardex.driver.sql;

import java.sql.SQLException;
import java.util.List;
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
  /** With {@link #READS}: it reads LAST_INSERT_ID() or FOUND_ROWS(), not only ROW_COUNT(). */
  public static final int READS_ID_OR_FOUND = 8;

  /** The logical connection's values, as SQL literals; a value the driver cannot know is refused by name. */
  public interface Values {
    String lastInsertId() throws SQLException;

    String rowCount() throws SQLException;

    String foundRows() throws SQLException;
  }

  private enum Kind { LAST_ID, ROW_COUNT, FOUND_ROWS }

  /** What ends a select item at its level; what starts one. */
  private static final Set<String> ITEM_END = Set.of(",", ";", "FROM", "INTO", "WHERE", "UNION", "LIMIT", "ORDER",
      "GROUP", "HAVING", "FOR", "LOCK", "WINDOW", "EXCEPT", "INTERSECT");
  private static final Set<String> ITEM_START = Set.of("SELECT", ",", "DISTINCT", "ALL", "DISTINCTROW",
      "SQL_CALC_FOUND_ROWS", "SQL_NO_CACHE", "SQL_CACHE", "STRAIGHT_JOIN", "HIGH_PRIORITY", "SQL_SMALL_RESULT",
      "SQL_BIG_RESULT", "SQL_BUFFER_RESULT");
  /** Tokens after which a name is an operand, not an alias. */
  private static final Set<String> BINDS = Set.of("+", "-", "*", "/", "%", "=", "<", ">", "!", "&", "|", "^", "~", "(", ",",
      ".", "IS", "NOT", "AND", "OR", "XOR", "LIKE", "IN", "BETWEEN", "DIV", "MOD", "REGEXP", "RLIKE", "COLLATE", "INTERVAL",
      "BINARY", "CASE", "WHEN", "THEN", "ELSE", "ESCAPE", "SOUNDS");
  /** Words that end an expression, never an alias. */
  private static final Set<String> NOT_NAMES = Set.of("END", "NULL", "TRUE", "FALSE", "UNKNOWN");
  /** Longer item texts are not written as labels (MariaDB takes names of up to 256 characters). */
  private static final int MAX_LABEL = 250;

  private SessionFunctions() {}

  /** The {@link #READS}, {@link #SETS_ID} and {@link #CALC_FOUND_ROWS} bits of a text. */
  public static int flags(String sql) {
    List<ClauseTokens.Token> t = ClauseTokens.of(sql);
    int flags = 0;
    for (int i = 0; i < t.size(); i++) {
      flags |= flag(t, i);
    }
    return flags;
  }

  private static int flag(List<ClauseTokens.Token> t, int i) {
    if (t.get(i).text.equals("SQL_CALC_FOUND_ROWS")) {
      return CALC_FOUND_ROWS;
    }
    Kind kind = kind(t, i);
    if (kind != null) {
      return kind == Kind.ROW_COUNT ? READS : READS | READS_ID_OR_FOUND;
    }
    return t.get(i).text.equals("LAST_INSERT_ID") && isText(t, i + 1, "(") ? SETS_ID : 0;
  }

  /** The value token i reads ({@code LAST_INSERT_ID()}, {@code @@identity}, ...), or null. */
  private static Kind kind(List<ClauseTokens.Token> t, int i) {
    String w = t.get(i).text;
    if (w.equals("@@IDENTITY") || w.equals("@@LAST_INSERT_ID")) {
      return Kind.LAST_ID;
    }
    if (!isText(t, i + 1, "(") || !isText(t, i + 2, ")")) {
      return null;
    }
    return switch (w) {
      case "LAST_INSERT_ID" -> Kind.LAST_ID;
      case "ROW_COUNT" -> Kind.ROW_COUNT;
      case "FOUND_ROWS" -> Kind.FOUND_ROWS;
      default -> null;
    };
  }

  private static boolean isText(List<ClauseTokens.Token> t, int i, String text) {
    return i < t.size() && t.get(i).text.equals(text);
  }

  /**
   * The text with every session-value read replaced by this connection's value: a literal, typed
   * with CAST in a select list, where the item also gets its text as its label unless it has an alias.
   */
  public static String substitute(String sql, Values values) throws SQLException {
    List<ClauseTokens.Token> t = ClauseTokens.of(sql);
    Rewrite out = new Rewrite(sql);
    for (int i = 0; i < t.size(); i++) {
      Kind kind = kind(t, i);
      if (kind != null) {
        int last = t.get(i).text.startsWith("@@") ? i : i + 2;
        int[] item = item(t, i);
        out.replace(t.get(i).start, t.get(last).end, item == null ? value(kind, values) : typed(kind, values));
        if (item != null && !aliased(t, item, last)) {
          out.label(t.get(item[0]).start, t.get(item[1]).end);
        }
      }
    }
    return out.finish();
  }

  /** The text being rewritten: replacements in order, and a select item's label written after its last read. */
  private static final class Rewrite {
    private final String sql;
    private final StringBuilder out;
    private int copied;
    private int labelAt = -1;
    private String label;

    Rewrite(String sql) {
      this.sql = sql;
      this.out = new StringBuilder(sql.length() + 48);
    }

    void replace(int start, int end, String with) {
      flushLabel(start);
      out.append(sql, copied, start).append(with);
      copied = end;
    }

    /** Labels the item [start, end) with its text, once, unless the text is too long for a name. */
    void label(int start, int end) {
      if (end != labelAt && end - start <= MAX_LABEL) {
        labelAt = end;
        label = sql.substring(start, end);
      }
    }

    private void flushLabel(int upTo) {
      if (label != null && labelAt <= upTo) {
        out.append(sql, copied, labelAt).append(" AS `").append(label.replace("`", "``")).append('`');
        copied = labelAt;
        label = null;
      }
    }

    String finish() {
      flushLabel(sql.length());
      return out.append(sql, copied, sql.length()).toString();
    }
  }

  private static String value(Kind kind, Values values) throws SQLException {
    return switch (kind) {
      case LAST_ID -> values.lastInsertId();
      case ROW_COUNT -> values.rowCount();
      case FOUND_ROWS -> values.foundRows();
    };
  }

  /** As MariaDB types them: LAST_INSERT_ID() and FOUND_ROWS() BIGINT UNSIGNED, ROW_COUNT() BIGINT. */
  private static String typed(Kind kind, Values values) throws SQLException {
    return "CAST(" + value(kind, values) + (kind == Kind.ROW_COUNT ? " AS SIGNED)" : " AS UNSIGNED)");
  }

  /**
   * The first and last token of the select item holding token i, or null when it is in no select
   * list: back to the SELECT or comma of the item's level (stepping out of brackets), forward to
   * what ends the item at that level.
   */
  private static int[] item(List<ClauseTokens.Token> t, int i) {
    int d = t.get(i).depth;
    int first = -1;
    for (int j = i - 1; j >= 0 && first < 0; j--) {
      ClauseTokens.Token k = t.get(j);
      d = Math.min(d, k.depth);
      if (k.depth == d && !k.clause.isEmpty() && !"SELECT".equals(k.clause)) {
        return null; // a WHERE, VALUES, SET ... at the read's level: no select item
      }
      first = k.depth == d && "SELECT".equals(k.clause) && ITEM_START.contains(k.text) ? j + 1 : -1;
    }
    if (first < 0) {
      return null;
    }
    int last = t.size() - 1;
    for (int j = i + 1; j < t.size() && last == t.size() - 1; j++) {
      ClauseTokens.Token k = t.get(j);
      last = k.depth < d || (k.depth == d && ITEM_END.contains(k.text)) ? j - 1 : last;
    }
    return new int[] {first, last};
  }

  /** Whether the item ends with an alias ({@code AS x}, or a name right after an operand). */
  private static boolean aliased(List<ClauseTokens.Token> t, int[] item, int read) {
    if (item[1] <= read) {
      return false;
    }
    ClauseTokens.Token end = t.get(item[1]);
    String before = t.get(item[1] - 1).text;
    boolean name = end.quoted() || (ClauseTokens.isWordPart(end.text.charAt(0)) && !Character.isDigit(end.text.charAt(0))
        && !NOT_NAMES.contains(end.text));
    return before.equals("AS") || (name && !BINDS.contains(before));
  }
}
