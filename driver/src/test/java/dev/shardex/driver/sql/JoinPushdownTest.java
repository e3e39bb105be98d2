package dev.shardex.driver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which grouped joins are given to one server: only those whose shown columns are grouped (else the
 * server shows any row's value), by name, by position or by a select alias that no table column
 * shadows, as MySQL resolves GROUP BY.
 */
class JoinPushdownTest {
  private static final JoinSplitter.Catalog CATALOG = JoinSplitterTest.CATALOG;

  private static final String JOIN = " FROM comments c LEFT JOIN posts p ON c.post_id = p.post_id";

  @Test
  void groupBy_byNamePositionOrUnshadowedAlias_isGivenToOneServer() throws Exception {
    for (String sql : List.of(
        "SELECT c.stars, COUNT(*)" + JOIN + " GROUP BY c.stars",
        "SELECT c.stars, COUNT(*)" + JOIN + " GROUP BY 1",
        "SELECT c.user_id AS x_1, c.stars, SUM(p.likes)" + JOIN + " GROUP BY x_1, 2",
        "SELECT c.stars AS s, COUNT(DISTINCT p.title)" + JOIN + " WHERE (c.post_id > ? OR p.title LIKE ?) GROUP BY s")) {
      JoinPushdown.Plan plan = JoinPushdown.of(sql, CATALOG);
      assertEquals(2, plan.sides().size(), sql);
      assertTrue(plan.outer().contains("GROUP BY"), plan.outer());
    }
  }

  @Test
  void aShownColumnNotGrouped_isRefused_evenWhenAnAliasOfItsNameIsGrouped() {
    for (String sql : List.of(
        "SELECT c.user_id, COUNT(*)" + JOIN + " GROUP BY c.stars",
        "SELECT c.user_id, c.stars" + JOIN + " GROUP BY 2",
        // GROUP BY stars is the column comments.stars, not the alias: user_id would be any row's
        "SELECT c.user_id AS stars, COUNT(*)" + JOIN + " GROUP BY stars")) {
      JoinPushdown.Refused e = assertThrows(JoinPushdown.Refused.class, () -> JoinPushdown.of(sql, CATALOG), sql);
      assertTrue(e.getMessage().contains("is shown but not grouped"), e.getMessage());
    }
  }
}
