package dev.shardex.driver.differential;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One generated SELECT and what the comparison may rely on.
 *
 * @param sql the text, sent unchanged to the oracle and through Shardex
 * @param order how far the oracle's row order is determined by the query
 * @param orderKeys for {@link Order#SEGMENTED}: the 0-based result columns holding the ORDER BY
 *     keys; rows must come in the same sequence of key groups, any order inside a group
 * @param aggregates 0-based result columns that are aggregates (their SQL type is the merge's to
 *     reproduce; the test reports type differences there but asserts types only elsewhere)
 * @param folded 0-based result columns whose string values are one representative of a group of
 *     collation-equal strings (GROUP BY, DISTINCT, MIN/MAX of a string): compared under
 *     utf8mb4_general_ci ('alpha' = 'Alpha' = 'ALPHA'), since which one a server picks is not
 *     determined
 * @param route how the WHERE clause names the shard key: "key=", "key IN", "key OR ...", "no key"
 *     or "global only"
 * @param origin "fixed #n" for the hand-written edge cases, "generated #n" otherwise
 */
public record GeneratedQuery(String sql, Order order, List<Integer> orderKeys, Set<Integer> aggregates,
    Set<Integer> folded, String route, String origin) {

  /** How the rows are compared. */
  public enum Order {
    /** ORDER BY with a unique tiebreaker (or over every group / distinct column): exact sequence. */
    TOTAL,
    /** ORDER BY whose keys are all in the select list but do not determine the order fully. */
    SEGMENTED,
    /** No ORDER BY, or one over columns not selected and not unique: rows compared as multisets. */
    NONE
  }

  /** The features a query uses, read off its text, for the per-feature summary. */
  public Set<String> features() {
    String u = sql.toUpperCase(java.util.Locale.ROOT);
    Set<String> f = new TreeSet<>();
    f.add("route: " + route);
    if (u.contains(" ORDER BY ")) {
      f.add("ORDER BY");
    }
    if (u.contains(" LIMIT ")) {
      f.add(u.matches("(?s).* LIMIT \\d+ OFFSET \\d+.*") || u.matches("(?s).* LIMIT \\d+, \\d+.*")
          ? "LIMIT+OFFSET" : "LIMIT");
    }
    if (u.contains(" GROUP BY ")) {
      f.add("GROUP BY");
    }
    int g = u.indexOf(" GROUP BY ");
    if (g >= 0) {
      String list = u.substring(g + 10).split(" HAVING | ORDER BY | LIMIT ")[0];
      for (String item : list.split(", ")) {
        if (item.trim().matches("\\d+")) {
          f.add("GROUP BY position");
        }
      }
    }
    if (u.contains("(SELECT ")) {
      f.add("subquery on the key");
    }
    if (u.matches("(?s).*(MAX\\([^)]*\\) - MIN|SUM\\([^)]*\\) / COUNT|ROUND\\(AVG|COUNT\\(\\*\\) \\+ 1).*")) {
      f.add("expression over aggregates");
    }
    if (u.contains(" HAVING ")) {
      f.add("HAVING");
    }
    if (u.startsWith("SELECT DISTINCT ")) {
      f.add("DISTINCT");
    }
    if (u.contains("(DISTINCT ")) {
      f.add("agg(DISTINCT ..)");
    }
    for (String fn : List.of("COUNT(", "SUM(", "AVG(", "MIN(", "MAX(")) {
      if (u.contains(fn)) {
        f.add("aggregate " + fn + ")");
      }
    }
    if (u.contains(" LEFT JOIN ")) {
      f.add("LEFT JOIN");
    }
    if (u.contains(" JOIN ")) {
      boolean global = u.contains(" COUNTRIES ");
      boolean sharded = u.contains(" POSTS ") && u.contains(" COMMENTS ") || u.contains(" USERS ") && u.contains(" POSTS ");
      f.add(sharded ? (global ? "join co-located + GLOBAL" : "join co-located") : "join with GLOBAL");
    }
    if (u.startsWith("SELECT * ") || u.contains(" * FROM")) {
      f.add("SELECT *");
    }
    if (u.contains(" WITH ROLLUP")) {
      f.add("WITH ROLLUP");
    }
    if (u.contains(" HAVING ") && !u.contains(" GROUP BY ")) {
      f.add("HAVING without GROUP BY");
    }
    if (u.contains("; ")) {
      f.add("multi-statement");
    }
    if (u.startsWith("REPLACE ")) {
      f.add("upsert REPLACE");
    } else if (u.contains(" ON DUPLICATE KEY UPDATE ")) {
      f.add("upsert ON DUPLICATE KEY");
    } else if (u.startsWith("INSERT IGNORE ")) {
      f.add("upsert INSERT IGNORE");
    }
    return f;
  }

  @Override
  public String toString() {
    return origin + " [" + order + (order == Order.SEGMENTED ? " by columns " + orderKeys : "") + "] " + sql;
  }
}
