package dev.shardex.driver.jdbc;

import java.sql.Connection;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises the session and transaction statements the driver handles itself rather than
 * sending to one shard: USE, SET autocommit, SET SESSION TRANSACTION ISOLATION LEVEL, BEGIN /
 * START TRANSACTION, COMMIT, ROLLBACK. Everything else of type SET is replayed as written.
 */
final class SessionStatements {
  private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL;
  static final Pattern USE = Pattern.compile("^USE\\s+`?([^`\\s;]+)`?\\s*;?\\s*$", FLAGS);
  static final Pattern AUTOCOMMIT = Pattern.compile(
      "^SET\\s+(?:SESSION\\s+|LOCAL\\s+|@@SESSION\\.|@@LOCAL\\.|@@)?autocommit\\s*(?::=|=)\\s*(\\w+)\\s*;?\\s*$", FLAGS);
  static final Pattern ISOLATION = Pattern.compile(
      "^SET\\s+SESSION\\s+TRANSACTION\\s+ISOLATION\\s+LEVEL\\s+(READ\\s+UNCOMMITTED|READ\\s+COMMITTED|REPEATABLE\\s+READ|SERIALIZABLE)\\s*;?\\s*$",
      FLAGS);
  static final Pattern BEGIN = Pattern.compile("^(?:BEGIN(?:\\s+WORK)?|START\\s+TRANSACTION\\b.*)\\s*;?\\s*$", FLAGS);
  static final Pattern COMMIT = Pattern.compile("^COMMIT(?:\\s+WORK)?\\s*;?\\s*$", FLAGS);
  static final Pattern ROLLBACK = Pattern.compile("^ROLLBACK(?:\\s+WORK)?\\s*;?\\s*$", FLAGS);

  private SessionStatements() {}

  static Matcher match(Pattern p, String sql) {
    return p.matcher(sql.strip());
  }

  static boolean onOff(String value) {
    String v = value.toLowerCase(Locale.ROOT);
    return v.equals("1") || v.equals("on") || v.equals("true");
  }

  static int isolation(String level) {
    return switch (level.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ")) {
      case "READ UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
      case "READ COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
      case "SERIALIZABLE" -> Connection.TRANSACTION_SERIALIZABLE;
      default -> Connection.TRANSACTION_REPEATABLE_READ;
    };
  }

  /** The text without leading comments (hints), as the patterns expect. */
  static String body(String sql) {
    return sql.substring(dev.shardex.driver.sql.SqlLexer.skipSpaceAndComments(sql, 0));
  }
}
