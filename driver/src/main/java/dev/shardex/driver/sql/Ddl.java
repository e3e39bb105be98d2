package dev.shardex.driver.sql;

import dev.shardex.vocabulary.TableDef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables a DDL statement acts on. DDL is recognised by pattern, not parsed: MySQL's DDL
 * grammar is large and JSqlParser lags behind it, and routing needs only the verb and the names.
 */
public record Ddl(Verb verb, List<String> tables) {
  public enum Verb {
    CREATE_TABLE,
    DROP_TABLE,
    ALTER_TABLE,
    TRUNCATE,
    CREATE_INDEX,
    DROP_INDEX,
    RENAME,
    OTHER
  }

  private static final String NAME = "((?:`[^`]+`|[\\w$]+)(?:\\s*\\.\\s*(?:`[^`]+`|[\\w$]+))?)";
  private static final String NAMES = NAME + "((?:\\s*,\\s*" + NAME + ")*)";
  private static final Pattern CREATE_TABLE = Pattern.compile(
      "^CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:TEMPORARY\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?" + NAME, Pattern.CASE_INSENSITIVE);
  private static final Pattern DROP_TABLE = Pattern.compile(
      "^DROP\\s+(?:TEMPORARY\\s+)?TABLES?\\s+(?:IF\\s+EXISTS\\s+)?" + NAMES, Pattern.CASE_INSENSITIVE);
  private static final Pattern ALTER_TABLE = Pattern.compile(
      "^ALTER\\s+(?:ONLINE\\s+|IGNORE\\s+)*TABLE\\s+(?:IF\\s+EXISTS\\s+)?" + NAME, Pattern.CASE_INSENSITIVE);
  private static final Pattern TRUNCATE = Pattern.compile("^TRUNCATE\\s+(?:TABLE\\s+)?" + NAME, Pattern.CASE_INSENSITIVE);
  private static final Pattern CREATE_INDEX = Pattern.compile(
      "^CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?\\S+\\s+(?:USING\\s+\\w+\\s+)?ON\\s+" + NAME,
      Pattern.CASE_INSENSITIVE);
  private static final Pattern DROP_INDEX = Pattern.compile(
      "^DROP\\s+INDEX\\s+(?:IF\\s+EXISTS\\s+)?\\S+\\s+ON\\s+" + NAME, Pattern.CASE_INSENSITIVE);
  private static final Pattern RENAME = Pattern.compile("^RENAME\\s+TABLES?\\s+" + NAME + "\\s+TO\\s+" + NAME, Pattern.CASE_INSENSITIVE);
  private static final Pattern NAME_PATTERN = Pattern.compile(NAME);

  public static Ddl of(String sql) {
    String body = sql.substring(SqlLexer.skipSpaceAndComments(sql, 0));
    Matcher m;
    if ((m = CREATE_TABLE.matcher(body)).find()) {
      return new Ddl(Verb.CREATE_TABLE, List.of(tableName(m.group(1))));
    }
    if ((m = DROP_TABLE.matcher(body)).find()) {
      List<String> names = new ArrayList<>();
      names.add(tableName(m.group(1)));
      Matcher more = NAME_PATTERN.matcher(m.group(2) == null ? "" : m.group(2));
      while (more.find()) {
        names.add(tableName(more.group(1)));
      }
      return new Ddl(Verb.DROP_TABLE, names);
    }
    if ((m = ALTER_TABLE.matcher(body)).find()) {
      return new Ddl(Verb.ALTER_TABLE, List.of(tableName(m.group(1))));
    }
    if ((m = TRUNCATE.matcher(body)).find()) {
      return new Ddl(Verb.TRUNCATE, List.of(tableName(m.group(1))));
    }
    if ((m = CREATE_INDEX.matcher(body)).find()) {
      return new Ddl(Verb.CREATE_INDEX, List.of(tableName(m.group(1))));
    }
    if ((m = DROP_INDEX.matcher(body)).find()) {
      return new Ddl(Verb.DROP_INDEX, List.of(tableName(m.group(1))));
    }
    if ((m = RENAME.matcher(body)).find()) {
      return new Ddl(Verb.RENAME, List.of(tableName(m.group(1)), tableName(m.group(2))));
    }
    return new Ddl(Verb.OTHER, List.of());
  }

  /** The logical table name: schema qualifier and back-quotes dropped, lower-cased. */
  public static String tableName(String qualified) {
    String s = qualified.trim();
    int dot = lastDotOutsideQuotes(s);
    return TableDef.normalise(dot < 0 ? s : s.substring(dot + 1).trim()).toLowerCase(Locale.ROOT);
  }

  private static int lastDotOutsideQuotes(String s) {
    boolean quoted = false;
    int last = -1;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '`') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        last = i;
      }
    }
    return last;
  }
}
