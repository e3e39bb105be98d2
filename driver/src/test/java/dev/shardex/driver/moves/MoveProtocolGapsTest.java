package dev.shardex.driver.moves;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.KeySpace;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveRecord;
import dev.shardex.directory.move.MoveStep;
import dev.shardex.directory.move.Mover;
import dev.shardex.driver.TestCluster;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Reproductions of gaps in the move protocol found while writing the issue-4 audit. Each test
 * asserts the behaviour the protocol promises and FAILS on the current code, so they run only on
 * request: {@code mvn -o test -pl driver -Dtest=MoveProtocolGapsTest -Dshardex.gaps=true}.
 */
@EnabledIfSystemProperty(named = "shardex.gaps", matches = "true")
class MoveProtocolGapsTest {
  static final String URL = ConcurrentWriterAuditTest.URL;
  static SandboxCluster sandbox;
  static HikariDataSource pool;
  static DirectoryStore store;

  @BeforeAll
  static void setUp() throws SQLException {
    sandbox = SandboxCluster.shared(ConcurrentWriterAuditTest.NAME, ConcurrentWriterAuditTest.SHARDS);
    pool = MoveTestSupport.directoryPool(sandbox, "gaps-directory", 8);
    store = MoveTestSupport.store(pool);
    try (Connection c = DriverManager.getConnection(URL + "&shardex.instance=gaps-setup"); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS gap_rows (id BIGINT PRIMARY KEY, "
          + "user_id BIGINT NOT NULL, v INT NOT NULL, KEY (user_id))");
    }
  }

  @AfterAll
  static void tearDown() {
    pool.close();
  }

  static Mover mover(long leaseMs, long marginMs) {
    return new Mover(store, MoveTestSupport.connector(sandbox),
        MoveOptions.defaults().withLease(leaseMs, marginMs).withAckTimeoutMs(10_000), FaultHook.NONE);
  }

  /** Gives users rows (20 each, through the driver) and puts them all on one shard; returns it. */
  static int seedOnOneShard(long... users) throws SQLException {
    try (Connection c = DriverManager.getConnection(URL + "&shardex.instance=gaps-setup");
        PreparedStatement ps = c.prepareStatement("INSERT INTO gap_rows (id, user_id, v) VALUES (?, ?, 0)")) {
      for (long user : users) {
        for (int i = 0; i < 20; i++) {
          ps.setLong(1, user * 100 + i);
          ps.setLong(2, user);
          ps.executeUpdate();
        }
      }
    }
    int shard = store.lookup(KeySpace.DEFAULT, Long.toString(users[0])).shardId();
    for (long user : users) {
      if (store.lookup(KeySpace.DEFAULT, Long.toString(user)).shardId() != shard) {
        assertEquals(MoveStep.DONE, mover(2_000, 1_000).move(KeySpace.DEFAULT, Long.toString(user), shard).step());
      }
    }
    return shard;
  }

  static long onShard(int shard, String sql) throws SQLException {
    try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static void awaitFrozen(long user, CompletableFuture<?> move) throws Exception {
    while (!store.lookup(KeySpace.DEFAULT, Long.toString(user)).frozen()) {
      if (move.isDone()) {
        move.get();
        throw new AssertionError("the move ended before it froze " + user);
      }
      Thread.sleep(2);
    }
  }

  /**
   * GAP 1: a transaction that wrote key k, then writes k again after a move froze it, waits for
   * the freeze to end; but the freeze cannot be acked while that transaction holds its in-flight
   * guard on k. The two wait for each other until shardex.frozenWaitMs: the statement fails
   * (SHX1408) and the move stalls for as long. Writing k on its source is safe here (the freeze is
   * not acked until the transaction ends, so the mover has not copied yet).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aTransactionThatAlreadyWroteAKeyCanWriteItAgainAfterTheFreeze() throws Exception {
    long user = 9_201;
    int from = seedOnOneShard(user);
    int to = (from + 1) % ConcurrentWriterAuditTest.SHARDS;
    try (Connection c = DriverManager.getConnection(URL + "&shardex.instance=gap-tx&shardex.frozenWaitMs=3000");
        PreparedStatement insert = c.prepareStatement("INSERT INTO gap_rows (id, user_id, v) VALUES (?, ?, 1)")) {
      c.setAutoCommit(false);
      insert.setLong(1, user * 100 + 50);
      insert.setLong(2, user);
      insert.executeUpdate();
      long t0 = System.nanoTime();
      CompletableFuture<MoveRecord> move = CompletableFuture.supplyAsync(() -> {
        try {
          return mover(2_000, 1_000).move(KeySpace.DEFAULT, Long.toString(user), to);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      awaitFrozen(user, move);
      // Let this driver apply the freeze (it cannot ack it: the transaction's guard is on the key).
      long freeze = store.lastChange();
      Directory dir = TestCluster.cluster(c).directory();
      while (dir.appliedChange() < freeze) {
        Thread.sleep(5);
      }
      System.out.println("GAP 1 debug: freeze<=" + freeze + " applied=" + dir.appliedChange() + " key=" + store.lookup(KeySpace.DEFAULT, Long.toString(user))
          + " clients=" + store.clients() + " moveDone=" + move.isDone());
      long w0 = System.nanoTime();
      String outcome;
      try {
        insert.setLong(1, user * 100 + 51);
        insert.executeUpdate();
        outcome = "ok";
      } catch (SQLException e) {
        outcome = MoveTestSupport.firstLine(e);
      }
      long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - w0);
      c.commit();
      MoveRecord done = move.get(20, TimeUnit.SECONDS);
      long moveMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      String report = "second write in the transaction after the freeze: " + outcome + " after " + waitedMs
          + " ms; move " + done.step() + " after " + moveMs + " ms";
      System.out.println("GAP 1: " + report);
      assertEquals("ok", outcome, report);
      assertTrue(waitedMs < 1_000, report);
      assertEquals(22, onShard(to, "SELECT COUNT(*) FROM gap_rows WHERE user_id = " + user), report);
    }
  }

  /**
   * GAP 2: the lease is checked once, before routing. A write that passed the check and then waits
   * (here for a shard connection, up to shardex.connectTimeoutMs; a slow network or a lock wait
   * would do the same) reaches the old shard after the mover stopped waiting for this driver
   * (lease + margin) and deleted the source: an acknowledged INSERT lands on a shard that no longer
   * owns the key (an orphan no read will see).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aWriteThatPassedTheLeaseCheckCannotLandAfterTheMoverGaveUpOnItsDriver() throws Exception {
    long blocker = 9_301;
    long user = 9_302;
    int from = seedOnOneShard(blocker, user);
    int to = (from + 1) % ConcurrentWriterAuditTest.SHARDS;
    String opts = "&shardex.instance=gap-lease&shardex.autoPoll=false&shardex.leaseMs=500&shardex.poolSize=1"
        + "&shardex.connectTimeoutMs=20000";
    try (Connection holder = DriverManager.getConnection(URL + opts); Connection writer = DriverManager.getConnection(URL + opts)) {
      Directory dir = TestCluster.cluster(holder).directory();
      dir.pollNow();
      // One connection of the instance holds the only pooled connection of the shard (a transaction that read).
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT COUNT(*) FROM gap_rows WHERE user_id = " + blocker)) {
        rs.next(); // a read in a transaction pins the connection and takes no lock
      }
      // The other passes the lease check at once, then waits for that connection.
      CompletableFuture<Object> write = CompletableFuture.supplyAsync(() -> {
        try (Statement s = writer.createStatement()) {
          return s.executeUpdate("INSERT INTO gap_rows (id, user_id, v) VALUES (" + (user * 100 + 77) + ", " + user + ", 9)");
        } catch (SQLException e) {
          return MoveTestSupport.firstLine(e);
        }
      });
      Thread.sleep(900); // lease 500 + margin 200 have passed since the last poll
      final int dbgShard = from;
      CompletableFuture.runAsync(() -> {
        try {
          Thread.sleep(4000);
          try (Connection c = sandbox.connectShard(dbgShard); Statement s = c.createStatement()) {
            for (String q : new String[] {"SELECT trx_id, trx_state, trx_started, trx_mysql_thread_id, trx_query, trx_rows_locked FROM information_schema.INNODB_TRX",
                "SELECT ID, COMMAND, TIME, STATE, INFO FROM information_schema.PROCESSLIST"}) {
              try (ResultSet rs = s.executeQuery(q)) {
                while (rs.next()) {
                  StringBuilder b = new StringBuilder("DBG ");
                  for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) b.append(rs.getString(i)).append(" | ");
                  System.out.println(b);
                }
              }
            }
          }
        } catch (Exception e) {
          e.printStackTrace();
        }
      });
      MoveRecord moved = mover(500, 200).move(KeySpace.DEFAULT, Long.toString(user), to);
      assertEquals(MoveStep.DONE, moved.step());
      holder.commit(); // the waiting write gets its connection now
      Object result = write.get(30, TimeUnit.SECONDS);
      long onOld = onShard(from, "SELECT COUNT(*) FROM gap_rows WHERE id = " + (user * 100 + 77));
      long onNew = onShard(to, "SELECT COUNT(*) FROM gap_rows WHERE id = " + (user * 100 + 77));
      String report = "write outcome " + result + "; the row is on old shard " + from + ": " + onOld + ", on owner " + to
          + ": " + onNew;
      System.out.println("GAP 2: " + report);
      try (Connection c = sandbox.connectShard(from); Statement s = c.createStatement()) {
        s.executeUpdate("DELETE FROM gap_rows WHERE user_id = " + user); // leave no orphan for the audit
      }
      assertEquals(0, onOld, "an acknowledged write landed on the old shard after the move: " + report);
    } finally {
      try (Connection c = DriverManager.getConnection(URL + opts)) {
        TestCluster.cluster(c).close();
      }
    }
  }

  /**
   * GAP 3: the flip's ack covers writes only. A read routed to the source before the driver applied
   * the flip, and executed after the mover deleted the source (here it waited for a shard
   * connection), returns nothing though the key's rows exist on the new shard: a live, healthy
   * driver answers a wrong (empty) result.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aReadInFlightDuringTheFlipDoesNotReadTheDeletedSource() throws Exception {
    long blocker = 9_401;
    long user = 9_402;
    int from = seedOnOneShard(blocker, user);
    int to = (from + 1) % ConcurrentWriterAuditTest.SHARDS;
    String opts = "&shardex.instance=gap-read&shardex.poolSize=1&shardex.connectTimeoutMs=20000";
    try (Connection holder = DriverManager.getConnection(URL + opts); Connection reader = DriverManager.getConnection(URL + opts)) {
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT COUNT(*) FROM gap_rows WHERE user_id = " + blocker)) {
        rs.next(); // a read in a transaction pins the connection and takes no lock
      }
      CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
        try (Statement s = reader.createStatement();
            ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM gap_rows WHERE user_id = " + user)) {
          rs.next();
          return rs.getLong(1);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      Thread.sleep(200);
      MoveRecord moved = mover(2_000, 1_000).move(KeySpace.DEFAULT, Long.toString(user), to);
      assertEquals(MoveStep.DONE, moved.step());
      holder.commit();
      long seen = read.get(30, TimeUnit.SECONDS);
      String report = "a read in flight across the move saw " + seen + " of 20 rows (all 20 are on shard " + to + ")";
      System.out.println("GAP 3: " + report);
      assertEquals(20, seen, report);
    } finally {
      try (Connection c = DriverManager.getConnection(URL + opts)) {
        TestCluster.cluster(c).close();
      }
    }
  }
}
