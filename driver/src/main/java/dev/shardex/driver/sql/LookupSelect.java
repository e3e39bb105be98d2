package dev.shardex.driver.sql;

import java.util.List;
import java.util.Locale;

/**
 * The read a DELETE or UPDATE of a table with lookup indexes runs first, so it knows the old values
 * of the rows it changes: {@code SELECT cols FROM <its table> <its WHERE, ORDER BY, LIMIT>}, with
 * the statement's own text (and so its own parameters, from {@code firstParameter} on: an UPDATE's
 * SET clause has the ones before). Multi-table forms have no such read (null).
 */
public record LookupSelect(String text, int firstParameter) {

  /** The read for a single-table DELETE or UPDATE text, or null for another shape. */
  public static LookupSelect of(String sql, StatementType type, List<String> columns) {
    String select = "SELECT " + String.join(", ", columns.stream().map(LookupSelect::quote).toList()) + " FROM ";
    String body = sql.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    return type == StatementType.DELETE ? delete(body, select) : update(body, select);
  }

  private static LookupSelect delete(String sql, String select) {
    int from = topLevelWord(sql, "FROM", SqlLexer.skipSpaceAndComments(sql, 0));
    if (from < 0) {
      return null;
    }
    String head = sql.substring(SqlLexer.skipSpaceAndComments(sql, 0), from);
    String rest = sql.substring(from + 4).strip();
    return onlyModifiers(head) || aliasOfItsOneTable(head, rest) ? new LookupSelect(select + rest, 0) : null;
  }

  /**
   * {@code DELETE p FROM pets p WHERE ...} (Hibernate 6's bulk delete on MySQL): the multi-table form
   * naming the one table of its FROM clause by its alias, which is a single-table DELETE.
   */
  private static boolean aliasOfItsOneTable(String head, String rest) {
    String[] words = head.strip().split("\\s+");
    String target = words[words.length - 1].replaceFirst("\\.\\*$", "");
    String[] table = rest.substring(0, firstOf(rest, 0, "WHERE", "ORDER", "LIMIT")).strip().split("\\s+");
    boolean oneTable = table.length == 2 || table.length == 3 && table[1].equalsIgnoreCase("AS");
    return words.length >= 2 && onlyModifiers(String.join(" ", java.util.Arrays.copyOf(words, words.length - 1)))
        && oneTable && !table[0].contains(",") && table[table.length - 1].equalsIgnoreCase(target);
  }

  /** Whether the words between DELETE and FROM are only DELETE's modifiers (not a multi-table target list). */
  private static boolean onlyModifiers(String head) {
    for (String w : head.strip().toUpperCase(Locale.ROOT).split("\\s+")) {
      if (!List.of("DELETE", "LOW_PRIORITY", "QUICK", "IGNORE").contains(w)) {
        return false;
      }
    }
    return true;
  }

  private static LookupSelect update(String sql, String select) {
    int start = SqlLexer.skipSpaceAndComments(sql, 0);
    int set = topLevelWord(sql, "SET", start);
    if (set < 0) {
      return null;
    }
    String table = sql.substring(start, set).strip().replaceFirst("(?i)^UPDATE(\\s+(LOW_PRIORITY|IGNORE))*\\s+", "");
    int tail = firstOf(sql, set, "WHERE", "ORDER", "LIMIT");
    int skipped = SqlLexer.countParameters(sql.substring(set, tail));
    return new LookupSelect(select + table + " " + sql.substring(tail).strip(), skipped);
  }

  private static int firstOf(String sql, int from, String... words) {
    int best = sql.length();
    for (String w : words) {
      int at = topLevelWord(sql, w, from);
      best = at >= 0 ? Math.min(best, at) : best;
    }
    return best;
  }

  /** Where the keyword first stands outside quotes, comments and parentheses at or after {@code from}; -1 if nowhere. */
  static int topLevelWord(String sql, String word, int from) {
    int depth = 0;
    for (int i = from; i < sql.length(); ) {
      int end = SqlLexer.opaqueEnd(sql, i);
      char c = sql.charAt(i);
      if (end > i) {
        i = end;
        continue;
      }
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      if (depth == 0 && sql.regionMatches(true, i, word, 0, word.length()) && boundary(sql, i - 1)
          && boundary(sql, i + word.length())) {
        return i;
      }
      i++;
    }
    return -1;
  }

  private static boolean boundary(String sql, int i) {
    return i < 0 || i >= sql.length() || !(Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_');
  }

  private static String quote(String column) {
    return "`" + column.replace("`", "``") + "`";
  }
}
