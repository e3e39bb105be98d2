package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Two driver instances insert the same unique ids for different owners at the same moment: for
 * every id exactly one insert wins and the other gets MySQL's duplicate-key error, and exactly one
 * row with the id exists across all shards; the same inside transactions, one committing, one
 * rolling back; and two JVMs inserting the same 400 unique emails for different users at once.
 */
class LookupUniquenessTest {
  static final int IDS = 60;

  @Test
  void twoJvmsInsertingTheSameUniqueEmails_exactlyOneWinsEach() throws Exception {
    TestCluster.run("CREATE TABLE lu_users (user_id BIGINT PRIMARY KEY, email VARCHAR(100) NOT NULL, UNIQUE KEY (email))"
        + " COMMENT='shardex:sharded key=user_id lookup=email unique'");
    String url = "jdbc:shardex:" + TestCluster.sandbox().directoryUrl().substring("jdbc:".length());
    int emails = 400; // each JVM takes about a second for them: long enough to overlap the other's
    List<Process> children = new ArrayList<>();
    for (int side = 1; side <= 2; side++) {
      children.add(new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), EmailWriterChild.class.getName(), url, TestCluster.sandbox().user(),
          TestCluster.sandbox().password(), Integer.toString(side), Integer.toString(emails)).redirectErrorStream(true).start());
    }
    int won = 0;
    int duplicate = 0;
    for (Process p : children) {
      String out = new String(p.getInputStream().readAllBytes());
      assertEquals(true, p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "child ended");
      assertEquals(0, p.exitValue(), out);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("won (\\d+) duplicate (\\d+)").matcher(out);
      assertEquals(true, m.find(), out);
      won += Integer.parseInt(m.group(1));
      duplicate += Integer.parseInt(m.group(2));
    }
    assertEquals(emails, won, "each email won once");
    assertEquals(emails, duplicate, "and refused once, as 1062/23000");
    long rows = 0;
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      rows += Long.parseLong(TestCluster.onShard(shard, "SELECT COUNT(*) FROM lu_users").get(0));
      assertEquals(List.of(), TestCluster.onShard(shard, "SELECT email FROM lu_users GROUP BY email HAVING COUNT(*) > 1"));
    }
    assertEquals(emails, rows, "one row per email across all shards");
  }

  @Test
  void twoInstancesRacingOnEachId_exactlyOneWins() throws Exception {
    TestCluster.run("CREATE TABLE lu_pets (id INT PRIMARY KEY, owner_id INT NOT NULL, name VARCHAR(20))"
        + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CyclicBarrier start = new CyclicBarrier(2);
    try (Connection a = TestCluster.connect("shardex.instance=lu-a"); Connection b = TestCluster.connect("shardex.instance=lu-b")) {
      Future<int[]> fa = pool.submit(() -> race(a, start, 1));
      Future<int[]> fb = pool.submit(() -> race(b, start, 2));
      int[] ra = fa.get();
      int[] rb = fb.get();
      for (int id = 0; id < IDS; id++) {
        assertEquals(1, ra[id] + rb[id], "id " + id + ": wins of a " + ra[id] + ", of b " + rb[id]);
      }
    } finally {
      pool.shutdownNow();
    }
    for (int id = 0; id < IDS; id++) {
      assertEquals(1, rowsAcrossShards("lu_pets", id), "rows with id " + id);
    }
  }

  /** Inserts every id for this side's owner (owners differ per side and id), each start in step with the other side; 1 = won. */
  private static int[] race(Connection c, CyclicBarrier start, int side) throws Exception {
    int[] won = new int[IDS];
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO lu_pets (id, owner_id, name) VALUES (?, ?, 'x')")) {
      for (int id = 0; id < IDS; id++) {
        ps.setInt(1, id);
        ps.setInt(2, id * 10 + side);
        start.await();
        try {
          won[id] = ps.executeUpdate();
        } catch (SQLException e) {
          if (e.getErrorCode() != 1062 || !"23000".equals(e.getSQLState())) {
            throw e;
          }
        }
      }
    }
    return won;
  }

  static long rowsAcrossShards(String table, int id) throws SQLException {
    long n = 0;
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      n += TestCluster.countOnShard(shard, table, "id = " + id);
    }
    return n;
  }

  @Test
  void aRolledBackInsert_leavesAnOrphanThatTheNextInsertTakes() throws Exception {
    TestCluster.run("CREATE TABLE lu_tx (id INT PRIMARY KEY, owner_id INT NOT NULL) COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection a = TestCluster.connect("shardex.instance=lu-a"); Connection b = TestCluster.connect("shardex.instance=lu-b")) {
      a.setAutoCommit(false);
      try (var s = a.createStatement()) {
        s.executeUpdate("INSERT INTO lu_tx VALUES (1, 11)");
      }
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        // b waits on a's open transaction (its locking probe of a's row), then finds the row gone
        Future<Integer> fb = pool.submit(() -> b.createStatement().executeUpdate("INSERT INTO lu_tx VALUES (1, 22)"));
        Thread.sleep(300);
        a.rollback();
        assertEquals(1, fb.get());
      } finally {
        pool.shutdownNow();
      }
    }
    assertEquals(1, rowsAcrossShards("lu_tx", 1));
    try (Connection c = TestCluster.connect()) {
      assertEquals("22", LookupRoutingTest.one(c, "SELECT owner_id FROM lu_tx WHERE id = 1"));
    }
  }

  @Test
  void aCommittedInsert_makesTheRacingOneADuplicate() throws Exception {
    TestCluster.run("CREATE TABLE lu_tx2 (id INT PRIMARY KEY, owner_id INT NOT NULL) COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    List<String> outcome = new ArrayList<>();
    try (Connection a = TestCluster.connect("shardex.instance=lu-a"); Connection b = TestCluster.connect("shardex.instance=lu-b")) {
      a.setAutoCommit(false);
      a.createStatement().executeUpdate("INSERT INTO lu_tx2 VALUES (1, 11)");
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<?> fb = pool.submit(() -> {
          try {
            b.createStatement().executeUpdate("INSERT INTO lu_tx2 VALUES (1, 22)");
            outcome.add("inserted");
          } catch (SQLException e) {
            outcome.add(e.getErrorCode() + " " + e.getMessage());
          }
          return null;
        });
        Thread.sleep(300);
        a.commit();
        fb.get();
      } finally {
        pool.shutdownNow();
      }
    }
    assertEquals(List.of("1062 Duplicate entry '1' for key 'PRIMARY'"), outcome);
    assertEquals(1, rowsAcrossShards("lu_tx2", 1));
  }
}
