package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Physical statements are reused per pooled shard connection (StatementCache): a prepared
 * statement's next execution on the same connection gets the same Connector/J statement, two open
 * result sets of one text get two, and a late cancel() of a finished execution does not reach the
 * query another logical statement now runs on that reused statement.
 */
class StatementReuseTest {
  @BeforeAll
  static void rows() throws SQLException {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS sr_t (user_id BIGINT PRIMARY KEY, v INT)",
        "DELETE FROM sr_t WHERE user_id IN (1, 2)", "INSERT INTO sr_t (user_id, v) VALUES (1, 10), (2, 20)");
  }

  private static Statement physical(ResultSet rs) throws SQLException {
    return rs.unwrap(ResultSet.class).getStatement(); // the shard's own statement, under Shardex's wrapper
  }

  @Test
  void theNextExecutionReusesTheShardStatementAndTwoOpenOnesGetTwo() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.poolSize=1");
        PreparedStatement ps = c.prepareStatement("SELECT v FROM sr_t WHERE user_id = ?")) {
      c.setAutoCommit(false); // one pinned shard connection for the whole test
      ps.setLong(1, 1);
      Statement first;
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(10, rs.getInt(1));
        first = physical(rs);
      }
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(10, rs.getInt(1));
        assertSame(first, physical(rs), "the second execution reuses the shard's statement");
      }
      try (PreparedStatement other = c.prepareStatement("SELECT v FROM sr_t WHERE user_id = ?");
          ResultSet open = ps.executeQuery()) {
        other.setLong(1, 1);
        try (ResultSet rs = other.executeQuery()) {
          assertTrue(rs.next() && open.next());
          assertEquals(10, rs.getInt(1));
          assertEquals(10, open.getInt(1));
          assertNotSame(physical(open), physical(rs), "a text already in use gets a statement of its own");
        }
      }
      c.commit();
    }
  }

  @Test
  void aLateCancelDoesNotReachAnotherExecutionOnTheReusedStatement() throws Exception {
    String sql = "SELECT v, SLEEP(?) AS s FROM sr_t WHERE user_id = ?";
    ExecutorService pool = Executors.newSingleThreadExecutor();
    // poolSize=1: both logical connections get the shard's one physical connection, so its cached statement
    try (Connection a = TestCluster.connect("shardex.poolSize=1&shardex.instance=reuse");
        Connection b = TestCluster.connect("shardex.poolSize=1&shardex.instance=reuse");
        PreparedStatement done = a.prepareStatement(sql);
        PreparedStatement sleeping = b.prepareStatement(sql)) {
      done.setInt(1, 0);
      done.setLong(2, 2);
      try (ResultSet rs = done.executeQuery()) {
        assertTrue(rs.next());
      }
      sleeping.setInt(1, 2);
      sleeping.setLong(2, 2);
      Future<Integer> slept = pool.submit(() -> {
        try (ResultSet rs = sleeping.executeQuery()) {
          assertTrue(rs.next());
          return rs.getInt("s"); // SLEEP answers 1 when its query is killed, 0 when it ran out
        }
      });
      Thread.sleep(500); // b's query is running now, on the statement a's execution used
      done.cancel();
      assertEquals(0, slept.get(30, TimeUnit.SECONDS), "a's late cancel killed b's query");
    } finally {
      pool.shutdownNow();
    }
  }
}
