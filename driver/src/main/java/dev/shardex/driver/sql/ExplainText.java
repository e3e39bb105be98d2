package dev.shardex.driver.sql;

import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;

/**
 * An EXPLAIN (or DESCRIBE/DESC) of a statement, cut in two: the words that ask for the plan, as
 * written ({@code "EXPLAIN FORMAT=JSON "}), and the statement, with the comments before the verb
 * kept (routing hints stay with it). The statement is routed as it would be; each shard it routes to
 * gets {@code prefix + its share of the statement}.
 *
 * <p>Not this: EXPLAIN ROUTE (Shardex's own), EXPLAIN or DESCRIBE of a table, EXPLAIN FOR
 * CONNECTION. {@code analyze} marks the forms that run the statement (ANALYZE SELECT, EXPLAIN
 * ANALYZE): they are refused by {@link #refuseAnalyze}, since a shard would really run them.
 */
public record ExplainText(String prefix, String statement, boolean analyze) {
  private static final Set<String> VERBS = Set.of("EXPLAIN", "DESCRIBE", "DESC", "ANALYZE");
  private static final Set<String> OPTIONS = Set.of("EXTENDED", "PARTITIONS", "ANALYZE");
  private static final Set<String> EXPLAINABLE = Set.of("SELECT", "WITH", "INSERT", "REPLACE", "UPDATE", "DELETE");

  /** The parts of an EXPLAIN of a statement, or null when the text is none. */
  public static ExplainText of(String sql) {
    int start = SqlLexer.skipSpaceAndComments(sql, 0);
    String verb = word(sql, start);
    if (!VERBS.contains(verb)) {
      return null;
    }
    boolean analyze = verb.equals("ANALYZE");
    int i = SqlLexer.skipSpaceAndComments(sql, start + verb.length());
    for (String w = word(sql, i); OPTIONS.contains(w) || w.equals("FORMAT"); w = word(sql, i)) {
      analyze |= w.equals("ANALYZE");
      i = w.equals("FORMAT") ? afterFormat(sql, i) : SqlLexer.skipSpaceAndComments(sql, i + w.length());
    }
    if (!EXPLAINABLE.contains(word(sql, i))) {
      return null;
    }
    return new ExplainText(sql.substring(start, i), sql.substring(0, start) + sql.substring(i), analyze);
  }

  /** Refuses the forms that run the statement (see the class comment). */
  public ExplainText refuseAnalyze() throws SQLException {
    if (analyze) {
      throw ShardexError.UNSUPPORTED.exception("'" + SqlLexer.abbreviate(prefix + statement)
          + "' (ANALYZE runs the statement on the shards)",
          "use EXPLAIN for the plan without running it, or run ANALYZE on one shard's own connection");
    }
    return this;
  }

  /** Past {@code FORMAT = name}. */
  private static int afterFormat(String sql, int i) {
    int at = SqlLexer.skipSpaceAndComments(sql, i + "FORMAT".length());
    if (at < sql.length() && sql.charAt(at) == '=') {
      at = SqlLexer.skipSpaceAndComments(sql, at + 1);
    }
    return SqlLexer.skipSpaceAndComments(sql, SqlLexer.keywordEnd(sql, at));
  }

  /** The letters at i, upper-cased ("" if none). */
  private static String word(String sql, int i) {
    return sql.substring(i, SqlLexer.keywordEnd(sql, i)).toUpperCase(Locale.ROOT);
  }
}
