package dev.shardex.cli.analyze;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A normalised text (a performance_schema digest or a pt-query-digest fingerprint) made routable:
 * system variables lose the back-quotes MariaDB gives them, the collapsed lists become {@link #LIST}
 * markers ({@code IN (...)}, {@code in(?+)}), a collapsed
 * VALUES row gets one marker per column, and MySQL's {@code /* , ... * /} multi-row note is dropped.
 * Each marker then gets its own value ({@link #values}), so {@code key = ?} routes to one shard and
 * a list of keys to several, the shape the statement has whatever its real values. A digest cut at
 * {@code performance_schema_max_digest_length} ends with {@code ...}: {@link #truncated} says so and
 * it is not routed.
 */
final class DigestText {
  /** How many keys a collapsed list stands for. */
  static final int LIST = 4;
  private static final Pattern IN_LIST = Pattern.compile("(?i)\\bIN\\s*\\(\\s*(?:\\.\\.\\.|\\?\\+)\\s*\\)");
  private static final Pattern MULTI_ROW = Pattern.compile("/\\*\\s*,\\s*\\.\\.\\.\\s*\\*/");
  /** MariaDB quotes system variables in digests: {@code @@SESSION . `x`}, {@code @@`x`}. */
  private static final Pattern VARIABLE = Pattern.compile("@@(?:(\\w+)\\s*\\.\\s*)?`(\\w+)`");
  private static final Pattern VALUES = Pattern.compile(
      "(?is)\\(([^()]*)\\)\\s*VALUES\\s*\\(\\s*(?:\\.\\.\\.|\\?\\+)\\s*\\)");

  private DigestText() {}

  static boolean truncated(String text) {
    return text.stripTrailing().endsWith("...") && !text.stripTrailing().endsWith("(...)");
  }

  static String routable(String text) {
    String s = MULTI_ROW.matcher(text).replaceAll("");
    s = VARIABLE.matcher(s).replaceAll(m -> "@@" + (m.group(1) == null ? "" : m.group(1) + ".") + m.group(2));
    s = IN_LIST.matcher(s).replaceAll("IN (" + markers(LIST) + ")");
    Matcher v = VALUES.matcher(s);
    StringBuilder out = new StringBuilder();
    while (v.find()) {
      int columns = v.group(1).split(",").length;
      v.appendReplacement(out, Matcher.quoteReplacement("(" + v.group(1) + ") VALUES (" + markers(columns) + ")"));
    }
    v.appendTail(out);
    return out.toString();
  }

  /** A distinct value per marker: text of digits, which a BIGINT and a STRING key both take. */
  static Object[] values(int markers) {
    Object[] values = new Object[markers];
    for (int i = 0; i < markers; i++) {
      values[i] = Integer.toString(1_000_003 + i * 7919);
    }
    return values;
  }

  private static String markers(int n) {
    return String.join(", ", java.util.Collections.nCopies(Math.max(1, n), "?"));
  }
}
