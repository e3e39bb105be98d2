package dev.shardex.cli.analyze;

import dev.shardex.driver.sql.ColumnLink;
import dev.shardex.driver.sql.ColumnRef;
import dev.shardex.driver.sql.KeyPredicate;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the report needs of one template, worked out once per distinct text: the tables it names,
 * the columns it compares by equality ({@code col = ?}, {@code col IN (...)}: key and lookup
 * candidates), the column pairs it joins on (co-location), whether it writes, and why routing does
 * not judge it (null when it does).
 */
record Shape(List<String> tables, List<String> equalities, List<String[]> joins, boolean write, String ignored) {
  private static final Pattern SYSTEM_SCHEMA = Pattern.compile(
      "(?i)(?:\\b|`)(information_schema|performance_schema|mysql|sys)`?\\s*\\.");

  static Shape of(RouteTemplate t, String text) {
    String ignored = ignoredBecause(t, text);
    List<String> tables = new ArrayList<>(new LinkedHashSet<>(t.tables().stream().map(TableRef::name).toList()));
    Set<String> eq = new LinkedHashSet<>();
    for (KeyPredicate k : t.keys()) {
      String table = tableOf(t, k.column());
      if (table != null) {
        eq.add(table + "." + k.column().column());
      }
    }
    List<String[]> joins = new ArrayList<>();
    for (ColumnLink l : t.links()) {
      String a = tableOf(t, l.left());
      String b = tableOf(t, l.right());
      if (a != null && b != null && !a.equals(b)) {
        joins.add(new String[] {a + "." + l.left().column(), b + "." + l.right().column()});
      }
    }
    return new Shape(List.copyOf(tables), List.copyOf(eq), joins, t.type().isWrite(), ignored);
  }

  private static String ignoredBecause(RouteTemplate t, String text) {
    return switch (t.type()) {
      case SESSION -> "session (SET, USE)";
      case TRANSACTION -> "transaction control";
      case DDL -> "DDL";
      case EXPLAIN, EXPLAIN_ROUTE -> "EXPLAIN";
      case OTHER -> "other (SHOW, CALL, ...)";
      default -> t.tables().isEmpty() ? "names no table"
          : SYSTEM_SCHEMA.matcher(text).find() ? "server schema (information_schema, mysql, ...)" : null;
    };
  }

  /** The table a column belongs to: its qualifier's table, else the only table of its scope; null if unsure. */
  private static String tableOf(RouteTemplate t, ColumnRef c) {
    TableRef only = null;
    int inScope = 0;
    for (TableRef r : t.tables()) {
      if (r.scope() != c.scope()) {
        continue;
      }
      if (c.qualifier() != null && r.answersTo(c.qualifier())) {
        return r.name();
      }
      inScope++;
      only = r;
    }
    return c.qualifier() == null && inScope == 1 ? only.name() : null;
  }

  static Shape unparsed() {
    return new Shape(List.of(), List.of(), List.of(), false, null);
  }
}
