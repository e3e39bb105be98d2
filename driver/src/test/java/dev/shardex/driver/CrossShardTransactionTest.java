package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.execute.XaCoordinator;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Transactions across shards: best_effort reports partial commits; xa commits all or nothing, with recovery. */
class CrossShardTransactionTest {
  static final String BASE = "jdbc:shardex:sandbox:xatest?shards=2&shardex.connectTimeoutMs=1000";
  static SandboxCluster sandbox;
  static long onZero;
  static long onOne;

  @BeforeAll
  static void schema() throws Exception {
    sandbox = SandboxCluster.shared("xatest", 2);
    try (Connection c = DriverManager.getConnection(BASE); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS tx_rows (user_id BIGINT, note VARCHAR(40))");
      for (long u = 1; u <= 4; u++) {
        s.executeUpdate("INSERT INTO tx_rows (user_id, note) VALUES (" + u + ", 'seed')");
        int shard = TestCluster.cluster(c).directory().store().lookup(KeySpace.DEFAULT, Long.toString(u)).shardId();
        if (shard == 0) {
          onZero = u;
        } else {
          onOne = u;
        }
      }
    }
    assertTrue(onZero > 0 && onOne > 0, "users on both shards");
  }

  @AfterEach
  void restore() {
    XaCoordinator.afterDecisionForTests = g -> { };
    sandbox.startShard(1);
  }

  static long count(int shard, String note) throws SQLException {
    try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement();
        var rs = s.executeQuery("SELECT COUNT(*) FROM tx_rows WHERE note = '" + note + "'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static void insertBoth(Connection c, String note) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO tx_rows (user_id, note) VALUES (" + onZero + ", '" + note + "')");
      s.executeUpdate("INSERT INTO tx_rows (user_id, note) VALUES (" + onOne + ", '" + note + "')");
    }
  }

  @Test
  void xa_commitAndRollbackAcrossTwoShards() throws Exception {
    try (Connection c = DriverManager.getConnection(BASE + "&shardex.transactions=xa&shardex.instance=xa1")) {
      c.setAutoCommit(false);
      insertBoth(c, "xa-commit");
      c.commit();
      insertBoth(c, "xa-rollback");
      c.rollback();
    }
    assertEquals(List.of(1L, 1L), List.of(count(0, "xa-commit"), count(1, "xa-commit")));
    assertEquals(List.of(0L, 0L), List.of(count(0, "xa-rollback"), count(1, "xa-rollback")));
  }

  @Test
  void xa_aShardKilledBetweenPrepareAndCommitIsCommittedByRecovery() throws Exception {
    try (Connection c = DriverManager.getConnection(BASE + "&shardex.transactions=xa&shardex.instance=xa2")) {
      XaCoordinator.afterDecisionForTests = gtrid -> sandbox.stopShard(1);
      c.setAutoCommit(false);
      insertBoth(c, "xa-crash");
      c.commit(); // the decision is logged: the transaction is committed, one branch still prepared
      XaCoordinator.afterDecisionForTests = g -> { };
      assertEquals(1, count(0, "xa-crash"));
      sandbox.startShard(1);
      TestCluster.cluster(c).recoverXa(); // (any driver instance's background pass may have finished it first)
      try (Connection shard = sandbox.connectShard(1); Statement s = shard.createStatement();
          var rs = s.executeQuery("XA RECOVER")) {
        assertTrue(!rs.next(), "recovery finished the prepared branch");
      }
    }
    assertEquals(1, count(0, "xa-crash"), "shard 0 committed once");
    assertEquals(1, count(1, "xa-crash"), "shard 1 committed by recovery: no partial commit");
  }

  @Test
  void bestEffort_commitsShardByShardAndNamesTheShardThatFailed() throws Exception {
    try (Connection c = DriverManager.getConnection(BASE + "&shardex.transactions=best_effort&shardex.instance=be")) {
      c.setAutoCommit(false);
      insertBoth(c, "be-ok");
      c.commit();
      insertBoth(c, "be-partial");
      sandbox.stopShard(1);
      SQLException e = assertThrows(SQLException.class, c::commit);
      assertTrue(ShardexError.BEST_EFFORT_PARTIAL.is(e), e.getMessage());
      assertTrue(e.getMessage().contains("shards 0 committed, shards 1 did not"), e.getMessage());
    }
    sandbox.startShard(1);
    assertEquals(List.of(1L, 1L), List.of(count(0, "be-ok"), count(1, "be-ok")));
    assertEquals(List.of(1L, 0L), List.of(count(0, "be-partial"), count(1, "be-partial")));
  }

  @Test
  void single_refusesTheSecondShard() throws Exception {
    try (Connection c = DriverManager.getConnection(BASE + "&shardex.transactions=single&shardex.instance=single")) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO tx_rows (user_id, note) VALUES (" + onZero + ", 'single')");
        SQLException e = assertThrows(SQLException.class,
            () -> s.executeUpdate("INSERT INTO tx_rows (user_id, note) VALUES (" + onOne + ", 'single')"));
        assertTrue(ShardexError.SECOND_SHARD.is(e), e.getMessage());
      }
      c.rollback();
    }
  }
}
