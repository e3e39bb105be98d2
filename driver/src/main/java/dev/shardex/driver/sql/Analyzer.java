package dev.shardex.driver.sql;

import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.upsert.Upsert;

/**
 * sql stage, step one: turns SQL text into a {@link RouteTemplate}. Session, transaction and DDL
 * statements are classified by their first keyword (they need no parse tree); queries and DML are
 * parsed by JSqlParser and walked by {@link TemplateBuilder}.
 */
public final class Analyzer {
  private static final Set<String> SESSION = Set.of("SET", "USE");
  private static final Set<String> TRANSACTION = Set.of("BEGIN", "START", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "XA");
  private static final Set<String> DDL = Set.of("CREATE", "ALTER", "DROP", "TRUNCATE", "RENAME");
  private static final Set<String> EXPLAIN = Set.of("EXPLAIN", "DESCRIBE", "DESC", "ANALYZE");
  private static final Set<String> PARSED = Set.of("SELECT", "WITH", "INSERT", "REPLACE", "UPDATE", "DELETE", "VALUES", "TABLE");

  private Analyzer() {}

  public static RouteTemplate analyze(String sql) throws SQLException {
    RouteTemplate t = analyzeText(sql);
    int functions = SessionFunctions.flags(sql);
    return functions == 0 ? t : t.withFunctions(functions);
  }

  private static RouteTemplate analyzeText(String sql) throws SQLException {
    Hints hints = Hints.parse(sql);
    String keyword = SqlLexer.firstKeyword(sql);
    if (SESSION.contains(keyword)) {
      return RouteTemplate.simple(StatementType.SESSION, 0, hints, null);
    }
    if (TRANSACTION.contains(keyword)) {
      return RouteTemplate.simple(StatementType.TRANSACTION, 0, hints, null);
    }
    if (DDL.contains(keyword)) {
      Ddl ddl = Ddl.of(sql);
      if (ddl.verb() == Ddl.Verb.CREATE_TABLE && hints.declaration() == null) {
        Hints.Declaration own = Hints.fromTableComment(sql); // COMMENT='shardex:...' survives tools that strip comments
        if (own != null) {
          hints = new Hints(hints.key(), hints.shard(), own);
        }
      }
      return RouteTemplate.simple(StatementType.DDL, 0, hints, ddl);
    }
    if (keyword.equals("EXPLAIN") && isExplainRoute(sql)) {
      return RouteTemplate.simple(StatementType.EXPLAIN_ROUTE, 0, hints, null);
    }
    ExplainText explain = EXPLAIN.contains(keyword) ? ExplainText.of(sql) : null;
    if (explain != null) { // the statement is analysed when it runs (jdbc.ExplainQuery): here only its ? count
      return RouteTemplate.simple(StatementType.EXPLAIN, SqlLexer.countParameters(explain.refuseAnalyze().statement()),
          hints, null);
    }
    if (!PARSED.contains(keyword)) {
      return RouteTemplate.simple(StatementType.OTHER, 0, hints, null);
    }
    if (SqlLexer.hasNumberedMarker(sql)) {
      throw ShardexError.UNSUPPORTED.exception("a numbered ? marker (?1) in '" + SqlLexer.abbreviate(sql) + "'",
          "MySQL numbers its markers by position: write ? for each parameter, in order");
    }
    Statement statement;
    try {
      statement = parse(sql);
    } catch (SQLException e) {
      if (hints.routes()) {
        return RouteTemplate.unparsed(typeOf(keyword), hints, e);
      }
      throw e;
    }
    try {
      return build(statement, hints);
    } catch (RuntimeException | StackOverflowError e) {
      throw ShardexError.PARSE.withCause(e, "cannot analyse its parse tree: " + e);
    }
  }

  private static RouteTemplate build(Statement statement, Hints hints) throws SQLException {
    TemplateBuilder b = new TemplateBuilder(hints);
    if (statement instanceof Delete d && d.getTable() == null && (d.getTables() == null || d.getTables().isEmpty())) {
      throw ShardexError.PARSE.exception("DELETE names no table");
    }
    if (statement instanceof Select select) {
      return b.select(select);
    } else if (statement instanceof Insert insert) {
      return b.insert(insert);
    } else if (statement instanceof Upsert upsert) {
      return b.upsert(upsert);
    } else if (statement instanceof Update update) {
      return b.update(update);
    } else if (statement instanceof Delete delete) {
      return b.delete(delete);
    }
    return RouteTemplate.simple(StatementType.OTHER, 0, hints, null);
  }

  private static StatementType typeOf(String keyword) {
    return switch (keyword) {
      case "INSERT" -> StatementType.INSERT;
      case "REPLACE" -> StatementType.REPLACE;
      case "UPDATE" -> StatementType.UPDATE;
      case "DELETE" -> StatementType.DELETE;
      default -> StatementType.SELECT;
    };
  }

  /** {@code EXPLAIN ROUTE <sql>}: the statement to explain, or null if this is not one. */
  public static String explained(String sql) {
    return afterWords(sql, "EXPLAIN", "ROUTE");
  }

  /** {@code EXPLAIN ANALYZE ROUTE <sql>}: the statement to run and measure, or null if this is not one. */
  public static String analysed(String sql) {
    return afterWords(sql, "EXPLAIN", "ANALYZE", "ROUTE");
  }

  /** The text after the given leading words (any case, separated by white space), or null. */
  private static String afterWords(String sql, String... words) {
    String rest = sql.substring(SqlLexer.skipSpaceAndComments(sql, 0));
    for (String w : words) {
      if (!rest.regionMatches(true, 0, w, 0, w.length()) || rest.length() <= w.length()
          || !Character.isWhitespace(rest.charAt(w.length()))) {
        return null;
      }
      rest = rest.substring(w.length()).stripLeading();
    }
    return rest.strip();
  }

  private static boolean isExplainRoute(String sql) {
    return explained(sql) != null || analysed(sql) != null;
  }

  /**
   * Words JSqlParser 5.4 reserves that MySQL does not (SETTINGS came with ClickHouse support,
   * JSqlParser #2362): used bare as table or column names they fail the parse, so a failed parse is
   * retried with them back-quoted. Only the parse sees the quotes; the shard gets the text as written.
   */
  private static final java.util.regex.Pattern NOT_RESERVED_IN_MYSQL =
      java.util.regex.Pattern.compile("(?i)(?<![`'\"\\w])(settings)(?![`'\"\\w])");

  /** Deeper than this, JSqlParser's recursive descent can overflow a default thread stack. */
  static final int MAX_DEPTH = 100;

  static Statement parse(String sql) throws SQLException {
    int depth = SqlLexer.maxDepth(sql);
    if (depth > MAX_DEPTH) {
      throw ShardexError.TOO_DEEP.exception(depth, MAX_DEPTH);
    }
    try {
      return CCJSqlParserUtil.newParser(sql).Statement();
    } catch (ParseException | RuntimeException | StackOverflowError e) {
      java.util.regex.Matcher m = NOT_RESERVED_IN_MYSQL.matcher(sql);
      if (m.find()) {
        try {
          return CCJSqlParserUtil.newParser(m.replaceAll("`$1`")).Statement();
        } catch (ParseException | RuntimeException | StackOverflowError ignored) {
          // report the original failure
        }
      }
      String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
      throw ShardexError.PARSE.withCause(e, reason.strip().toLowerCase(Locale.ROOT).startsWith("encountered")
          ? reason.strip() : "parser: " + reason.strip());
    }
  }
}
