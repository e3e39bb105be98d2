package dev.shardex.driver.transactions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import dev.shardex.driver.execute.AtomicCommit;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default transaction mode, atomic: one shard is a plain local transaction; more shards
 * commit all together or not at all, with reads, GLOBAL writes, savepoints, session SETs,
 * batches and multi-statement text inside.
 */
class AtomicTransactionTest {
  static long[] users; // one user per shard 0..3

  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS at_rows (user_id BIGINT, note VARCHAR(40))",
        "/* shardex:global */ CREATE TABLE IF NOT EXISTS at_global (id BIGINT, note VARCHAR(40))");
    users = Txn.usersOnEveryShard("at_rows");
  }

  @AfterEach
  void noFault() {
    AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> { };
  }

  static long rows(int shard, String note) throws SQLException {
    return TestCluster.countOnShard(shard, "at_rows", "note = '" + note + "'");
  }

  static void insert(Statement s, long user, String note) throws SQLException {
    s.executeUpdate("INSERT INTO at_rows (user_id, note) VALUES (" + user + ", '" + note + "')");
  }

  @Test
  void oneShardIsAPlainLocalTransactionWithNoXa() throws Exception {
    long[] xaBefore = TestCluster.statusAll("Com_xa_start");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      insert(s, users[1], "local");
      s.executeUpdate("UPDATE at_rows SET note = 'local2' WHERE user_id = " + users[1] + " AND note = 'local'");
      s.executeQuery("SELECT COUNT(*) FROM at_rows WHERE user_id = " + users[1]).close();
      c.commit();
    }
    assertArrayEquals(xaBefore, TestCluster.statusAll("Com_xa_start"), "no XA on any shard");
    assertEquals(1, rows(1, "local2"));
  }

  @Test
  void twoShardsCommitTogetherAndRollBackTogether() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      insert(s, users[0], "both");
      insert(s, users[2], "both");
      c.commit();
      insert(s, users[0], "neither");
      insert(s, users[2], "neither");
      c.rollback();
    }
    assertEquals(java.util.List.of(1L, 1L), java.util.List.of(rows(0, "both"), rows(2, "both")));
    assertEquals(java.util.List.of(0L, 0L), java.util.List.of(rows(0, "neither"), rows(2, "neither")));
    assertEquals(0, Txn.preparedBranches(), "no branch left prepared");
  }

  @Test
  void commitRecordsDoNotPileUp() throws Exception {
    long before = records(0);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (int i = 0; i < 5; i++) {
        insert(s, users[0], "records"); // origin: shard 0
        insert(s, users[1 + i % 3], "records");
        c.commit();
      }
    }
    assertTrue(records(0) - before <= 1, "each record deletes the resolved ones before it: " + before + " -> " + records(0));
  }

  static long records(int shard) throws SQLException {
    try {
      return Long.parseLong(TestCluster.onShard(shard, "SELECT COUNT(*) FROM shardex.llr_commits").get(0));
    } catch (SQLException e) {
      return 0; // no cross-shard transaction has run on this sandbox yet: no table
    }
  }

  @Test
  void aReadFirstThenAShardedAndAGlobalWrite() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeQuery("SELECT COUNT(*) FROM at_rows WHERE user_id = " + users[3]).close();
      s.executeQuery("SELECT COUNT(*) FROM at_global").close();
      insert(s, users[1], "read-then-write");
      s.executeUpdate("INSERT INTO at_global (id, note) VALUES (1, 'global-in-tx')");
      c.commit();
    }
    assertEquals(1, rows(1, "read-then-write"));
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertEquals(1, TestCluster.countOnShard(shard, "at_global", "note = 'global-in-tx'"), "GLOBAL row on shard " + shard);
    }
  }

  @Test
  void aScatterReadThenAWriteCommitsWithReadOnlyBranches() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      try (var rs = s.executeQuery("SELECT COUNT(*) FROM at_rows")) {
        assertTrue(rs.next());
      }
      insert(s, users[2], "after-scatter");
      c.commit();
    }
    assertEquals(1, rows(2, "after-scatter"));
    assertEquals(0, Txn.preparedBranches());
  }

  /** Spring's read-only transactions: a scatter read under setReadOnly(true) needs no XA at all. */
  @Test
  void aReadOnlyTransactionScattersWithoutXa() throws Exception {
    long[] xaBefore = TestCluster.statusAll("Com_xa_start");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setReadOnly(true);
      c.setAutoCommit(false);
      try (var rs = s.executeQuery("SELECT COUNT(*) FROM at_rows WHERE note = 'seed'")) {
        assertTrue(rs.next());
        assertTrue(rs.getLong(1) >= TestCluster.SHARDS);
      }
      c.commit();
    }
    assertArrayEquals(xaBefore, TestCluster.statusAll("Com_xa_start"), "no XA on any shard");
  }

  @Test
  void savepointsSpanTheShardsJoinedLater() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      java.sql.Savepoint start = c.setSavepoint();
      insert(s, users[0], "sp-kept");
      java.sql.Savepoint middle = c.setSavepoint("middle");
      insert(s, users[3], "sp-undone");
      insert(s, users[0], "sp-undone");
      c.rollback(middle);
      insert(s, users[2], "sp-kept");
      c.commit();
      assertTrue(start != null);
    }
    assertEquals(java.util.List.of(1L, 0L, 1L, 0L),
        java.util.List.of(rows(0, "sp-kept"), rows(3, "sp-undone") + rows(0, "sp-undone"), rows(2, "sp-kept"), 0L));
  }

  /** Finding 11 of the drop-in issue: SET, an autocommit read, then a transaction over two shards. */
  @ParameterizedTest
  @ValueSource(strings = {"atomic", "xa"})
  void aSessionSetThenAReadThenATwoShardTransaction(String mode) throws Exception {
    String note = "set-" + mode;
    try (Connection c = TestCluster.connect("shardex.transactions=" + mode); Statement s = c.createStatement()) {
      s.execute("SET @shardex_marker = 5");
      s.executeQuery("SELECT COUNT(*) FROM at_rows WHERE user_id = " + users[0]).close(); // pins shard 0 (sticky)
      c.setAutoCommit(false);
      insert(s, users[0], note);
      insert(s, users[1], note);
      c.commit();
      try (var rs = s.executeQuery("SELECT @shardex_marker FROM at_rows WHERE user_id = " + users[1] + " LIMIT 1")) {
        assertTrue(rs.next());
        assertEquals(5, rs.getInt(1), "the SET is replayed on the shard pinned later");
      }
      c.commit();
    }
    assertEquals(java.util.List.of(1L, 1L), java.util.List.of(rows(0, note), rows(1, note)));
  }

  @Test
  void batchesAndMultiStatementTextAcrossShards() throws Exception {
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO at_rows (user_id, note) VALUES (?, 'batch')");
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      for (long u : users) {
        ps.setLong(1, u);
        ps.addBatch();
      }
      ps.executeBatch();
      s.execute("INSERT INTO at_rows (user_id, note) VALUES (" + users[1] + ", 'multi'); "
          + "INSERT INTO at_rows (user_id, note) VALUES (" + users[3] + ", 'multi')");
      c.commit();
    }
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertEquals(1, rows(shard, "batch"), "batch row on shard " + shard);
    }
    assertEquals(java.util.List.of(1L, 1L), java.util.List.of(rows(1, "multi"), rows(3, "multi")));
  }

  @Test
  void aFailureBeforeTheCommitPointRollsBackEveryShard() throws Exception {
    AtomicCommit.faultForTests = (step, shard, gtrid, connections) -> {
      if (step == AtomicCommit.Step.BEFORE_COMMIT_POINT) {
        Txn.kill(shard, connections.get(shard)); // the origin's connection dies before the record is written
      }
    };
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      insert(s, users[2], "failed");
      insert(s, users[3], "failed");
      insert(s, users[0], "failed");
      SQLException e = assertThrows(SQLException.class, c::commit);
      assertTrue(ShardexError.ATOMIC_ROLLED_BACK.is(e), e.getMessage());
      assertEquals("40000", e.getSQLState());
    }
    assertEquals(java.util.List.of(0L, 0L, 0L), java.util.List.of(rows(2, "failed"), rows(3, "failed"), rows(0, "failed")));
    assertEquals(0, Txn.preparedBranches(), "every branch rolled back");
  }

  /** A move's freeze waits for this driver's ack, and the ack waits for the transaction to end. */
  @Test
  void aMoveOfAKeyWrittenOnABranchWaitsForTheCommit() throws Exception {
    try (Connection c = TestCluster.connect("shardex.autoPoll=false&shardex.instance=atomic-move");
        Statement s = c.createStatement()) {
      dev.shardex.directory.Directory dir = TestCluster.cluster(c).directory();
      dir.pollNow();
      c.setAutoCommit(false);
      insert(s, users[0], "moving");
      insert(s, users[3], "moving"); // an XA branch
      String key = Long.toString(users[3]);
      dir.store().assign(dev.shardex.vocabulary.KeySpace.DEFAULT, key, 3); // a logged change to the key, as a freeze is
      long change = dir.store().lastChange();
      dir.pollNow();
      assertTrue(Txn.appliedChange(dir.clientId()) < change, "not acknowledged while the transaction is open");
      c.commit();
      dir.pollNow();
      assertTrue(Txn.appliedChange(dir.clientId()) >= change, "acknowledged once it committed");
    }
    assertEquals(java.util.List.of(1L, 1L), java.util.List.of(rows(0, "moving"), rows(3, "moving")));
  }

  @Test
  void singleStillRefusesASecondShard() throws Exception {
    try (Connection c = TestCluster.connect("shardex.transactions=single"); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      insert(s, users[0], "single");
      SQLException e = assertThrows(SQLException.class, () -> insert(s, users[1], "single"));
      assertTrue(ShardexError.SECOND_SHARD.is(e), e.getMessage());
      c.rollback();
    }
  }
}
