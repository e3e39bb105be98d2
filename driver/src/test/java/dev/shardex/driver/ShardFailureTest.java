package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** Acceptance: a stopped shard fails only the statements routed to it, with SHX1401 (SQLState 57S01) naming it. */
class ShardFailureTest {
  static final String URL = "jdbc:shardex:sandbox:failover?shards=2&shardex.connectTimeoutMs=1000";

  @Test
  void stoppingOneShardFailsOnlyItsStatements() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared("failover", 2);
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ff_rows (user_id BIGINT, v INT)");
      for (long u = 1; u <= 6; u++) {
        s.executeUpdate("INSERT INTO ff_rows (user_id, v) VALUES (" + u + ", 1)");
      }
      var store = TestCluster.cluster(c).directory().store();
      long onZero = -1;
      long onOne = -1;
      for (long u = 1; u <= 6; u++) {
        int shard = store.lookup(KeySpace.DEFAULT, Long.toString(u)).shardId();
        if (shard == 0) {
          onZero = u;
        } else {
          onOne = u;
        }
      }
      assertTrue(onZero > 0 && onOne > 0, "users on both shards");

      sandbox.stopShard(1);
      try {
        for (String sql : new String[] {"SELECT v FROM ff_rows WHERE user_id = " + onOne,
            "UPDATE ff_rows SET v = 2 WHERE user_id = " + onOne, "SELECT * FROM ff_rows"}) {
          SQLException e = assertThrows(SQLException.class, () -> s.execute(sql), sql);
          assertEquals("57S01", e.getSQLState(), sql);
          assertTrue(e.getMessage().contains("shard 1 ("), sql + " -> " + e.getMessage());
          assertFalse(e.getMessage().contains(sandbox.password()), "no password in: " + e.getMessage());
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE ff_rows SET v = v + 1 WHERE user_id = ?")) {
          ps.setLong(1, onZero);
          assertEquals(1, ps.executeUpdate(), "shard 0 keeps working");
        }
        try (ResultSet rs = s.executeQuery("SELECT v FROM ff_rows WHERE user_id = " + onZero)) {
          assertTrue(rs.next());
          assertEquals(2, rs.getInt(1));
        }
      } finally {
        sandbox.startShard(1);
      }
      // SHX1401 is transient (57S01): a caller retries it; the pool reconnects within a few tries
      // (on a loaded machine the restarted server may take longer than one connect timeout)
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      while (true) {
        try (ResultSet rs = s.executeQuery("SELECT v FROM ff_rows WHERE user_id = " + onOne)) {
          assertTrue(rs.next(), "shard 1 serves again after restart");
          assertEquals(1, rs.getInt(1));
          break;
        } catch (SQLException e) {
          if (!"57S01".equals(e.getSQLState()) || System.nanoTime() > deadline) {
            throw e;
          }
        }
      }
    }
  }
}
