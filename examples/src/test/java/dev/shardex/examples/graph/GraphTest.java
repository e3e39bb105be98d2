package dev.shardex.examples.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.examples.support.SandboxDirectories;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Facebook's hot node: no lost increment either way, and the non-stored procedure is one round trip. */
class GraphTest {
  static final String URL = "jdbc:shardex:sandbox:graphtest?shards=2";

  @Test
  void hotNode_bothWays_everyAddedEdgeCountedExactlyOnce() throws Exception {
    for (boolean nonStored : new boolean[] {false, true}) {
      GraphDemo.Result r = GraphDemo.measure("direct", URL, nonStored ? 501 : 502, nonStored, 600);
      assertTrue(r.added() > 0, "some edges were added: " + r);
      assertEquals(r.added(), r.storedEdges(), "every acknowledged add is stored: " + r);
      assertEquals(r.storedEdges(), r.countedEdges(), "the count matches the edges (no lost increment): " + r);
    }
  }

  @Test
  void nonStoredProcedure_isOneRoundTrip_theTransactionSeveral() throws Exception {
    try (Connection c = DriverManager.getConnection(URL)) {
      Graph g = new Graph(c);
      g.createSchema();
      g.addNode(600);
      var metrics = c.unwrap(ShardexConnection.class).cluster().metrics();
      long before = metrics.roundTrips();
      assertTrue(g.addEdgeNonStored(600, 1));
      assertEquals(before + 1, metrics.roundTrips(), "START; INSERT; UPDATE; COMMIT as one text");
      before = metrics.roundTrips();
      assertTrue(g.addEdgeInTransaction(600, 2));
      assertTrue(metrics.roundTrips() - before >= 2, "the INSERT and the UPDATE (and the COMMIT) each cross the network");
      assertTrue(!g.addEdgeNonStored(600, 1) && !g.addEdgeInTransaction(600, 2), "a repeated edge is not added");
      assertEquals(2, g.counts(600)[1]);
    }
  }

  @Test
  void delayProxy_addsItsDelayEachWay() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared("graphtest", 2);
    String url = SandboxDirectories.directory(sandbox, "graphtest_10ms", 2, 10, List.of());
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      Graph g = new Graph(c);
      g.createSchema();
      g.addNode(700);
      long start = System.nanoTime();
      try (ResultSet rs = s.executeQuery("SELECT edge_count FROM node_counts WHERE node_id = 700")) {
        assertTrue(rs.next());
      }
      long ms = (System.nanoTime() - start) / 1_000_000;
      assertTrue(ms >= 20, "a round trip through a 10 ms proxy takes at least 20 ms, took " + ms);
      assertTrue(g.addEdgeNonStored(700, 1));
      assertEquals(1, g.counts(700)[1]);
    }
  }
}
