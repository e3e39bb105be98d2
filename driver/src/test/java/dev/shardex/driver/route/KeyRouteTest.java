package dev.shardex.driver.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.RouteFixturesTest;
import dev.shardex.driver.TestCluster;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.StatementType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fast path ({@link KeyRoute}) answers exactly as the general path does: every route fixture
 * it takes (as EXPLAIN ROUTE would route it, against the fixtures' directory state) gets the same
 * shards, fan-out and write flag, or the same error.
 */
class KeyRouteTest {
  @BeforeAll
  static void fixtures() throws SQLException {
    RouteFixturesTest.fixedDirectoryState();
  }

  @AfterAll
  static void close() throws SQLException {
    RouteFixturesTest.close();
  }

  private interface Routing {
    RoutePlan plan() throws SQLException;
  }

  private static String outcome(Routing r) {
    try {
      RoutePlan p = r.plan();
      return p == null ? null : p.fanout() + " " + p.shards() + (p.write() ? " write" : " read");
    } catch (SQLException e) {
      return "!! " + e.getMessage();
    }
  }

  @Test
  void everyFixtureTheFastPathTakes_routesAsTheGeneralPath() throws Exception {
    int fast = 0;
    for (String file : RouteFixturesTest.FILES) {
      for (RouteFixturesTest.Case c : RouteFixturesTest.parse(file)) {
        Connection conn = c.options().contains("shardex.scatterWrites=allow") ? RouteFixturesTest.allow
            : RouteFixturesTest.deny;
        Cluster cluster = TestCluster.cluster(conn);
        Analysis a;
        try {
          a = cluster.templates().plain(c.sql());
        } catch (SQLException unparsed) {
          continue;
        }
        StatementType type = a.template().type();
        if (type == StatementType.SESSION || type == StatementType.TRANSACTION || type == StatementType.EXPLAIN_ROUTE) {
          continue;
        }
        RouteContext ctx = cluster.routeContext(null, List.of()).explaining();
        String viaKey = outcome(() -> KeyRoute.route(a.template(), a.literals(), ctx));
        if (viaKey == null) {
          continue; // not a key-equality statement
        }
        fast++;
        String general = outcome(() -> Router.routeOnce(a.template(), a.literals(), ctx));
        assertEquals(general, viaKey, c.file() + ":" + c.line() + ": " + c.sql());
      }
    }
    assertTrue(fast >= 20, "the fast path took " + fast + " fixtures");
  }
}
