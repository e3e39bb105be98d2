package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sequence-filled ids never repeat an id already in the column, as AUTO_INCREMENT on one server:
 * explicit ids (seed data, imports, mixed rows) move the sequence past them, a sequence attached
 * over existing rows starts after the largest, and ids handed out in another instance's block
 * are dropped there.
 */
class SequenceIdsTest {
  /** Every id of the table with the shards that hold it. */
  private static Map<Long, List<Integer>> idsByShard(String table) throws Exception {
    Map<Long, List<Integer>> ids = new HashMap<>();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      for (String id : TestCluster.onShard(shard, "SELECT id FROM " + table)) {
        ids.computeIfAbsent(Long.parseLong(id), k -> new ArrayList<>()).add(shard);
      }
    }
    return ids;
  }

  private static void assertNoIdOnTwoShards(String table, int rows) throws Exception {
    Map<Long, List<Integer>> ids = idsByShard(table);
    ids.forEach((id, shards) -> assertEquals(1, shards.size(), table + " id " + id + " is on shards " + shards));
    assertEquals(rows, ids.size(), "rows of " + table);
  }

  private static long insertReturningId(Connection c, String sql) throws Exception {
    try (Statement s = c.createStatement()) {
      assertEquals(1, s.executeUpdate(sql, Statement.RETURN_GENERATED_KEYS));
      try (ResultSet keys = s.getGeneratedKeys()) {
        assertTrue(keys.next(), "a generated key for " + sql);
        return keys.getLong(1);
      }
    }
  }

  @Test
  void seedIdsWithoutAColumnList_thenANewOwnerGetsTheNextFreeIdAtOnce() throws Exception {
    TestCluster.run("CREATE TABLE sx_owners (id INT(4) UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, first_name VARCHAR(30))"
        + " COMMENT='shardex:sharded key=id'");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (int id = 1; id <= 10; id++) {
        s.executeUpdate("INSERT IGNORE INTO sx_owners VALUES (" + id + ", 'owner " + id + "')");
      }
      long added = insertReturningId(c, "INSERT INTO sx_owners (first_name) VALUES ('George')");
      assertTrue(added > 10, "the first new owner's id is above the seed ids: " + added);
      assertEquals(List.of("George"), TestCluster.onShard(owner(c, added), "SELECT first_name FROM sx_owners WHERE id = " + added));
    }
    assertNoIdOnTwoShards("sx_owners", 11);
  }

  private static int owner(Connection c, long key) throws Exception {
    return TestCluster.cluster(c).directory().store().lookup("default", Long.toString(key)).shardId();
  }

  @Test
  void aPetAddedAfterSeedPetsNeverTakesAnIdThatLivesOnAnotherShard() throws Exception {
    TestCluster.run("CREATE TABLE sx_pets (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(30), owner_id INT NOT NULL)"
        + " COMMENT='shardex:sharded key=owner_id'");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (int id = 1; id <= 13; id++) {
        s.executeUpdate("INSERT INTO sx_pets VALUES (" + id + ", 'pet " + id + "', " + (1 + id % 10) + ")");
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO sx_pets (name, owner_id) VALUES (?, ?)",
          Statement.RETURN_GENERATED_KEYS)) {
        ps.setString(1, "Samantha");
        ps.setInt(2, 2);
        ps.executeUpdate();
        try (ResultSet keys = ps.getGeneratedKeys()) {
          assertTrue(keys.next());
          assertTrue(keys.getLong(1) > 13, "id above the seed pets: " + keys.getLong(1));
        }
      }
    }
    assertNoIdOnTwoShards("sx_pets", 14);
  }

  @Test
  void rowsOfOneInsertMayMixNullsAndTheirOwnIds() throws Exception {
    TestCluster.run("CREATE TABLE sx_mixed (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, v VARCHAR(10))"
        + " COMMENT='shardex:sharded key=user_id'");
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO sx_mixed (id, user_id, v) VALUES (NULL, 1, 'a'), (5000, 2, 'b'), (?, 3, 'c'), (?, 4, 'd'), (?, 6, 'z')",
            Statement.RETURN_GENERATED_KEYS)) {
      ps.setNull(1, java.sql.Types.BIGINT);
      ps.setLong(2, 4000);
      ps.setLong(3, 0); // 0 asks for the next id, as NULL does
      assertEquals(5, ps.executeUpdate());
      List<Long> keys = new ArrayList<>();
      try (ResultSet rs = ps.getGeneratedKeys()) {
        while (rs.next()) {
          keys.add(rs.getLong(1));
        }
      }
      assertEquals(3, keys.size(), "the three filled rows: " + keys);
      assertTrue(keys.stream().allMatch(k -> k > 0 && k != 4000 && k != 5000), "sequence ids: " + keys);
      long after = insertReturningId(c, "INSERT INTO sx_mixed (user_id, v) VALUES (5, 'e')");
      assertTrue(after > 5000, "a later id is above the explicit 5000: " + after);
    }
    assertEquals(List.of("5000"), rowsOf("SELECT id FROM sx_mixed WHERE v = 'b'"));
    assertEquals(List.of("4000"), rowsOf("SELECT id FROM sx_mixed WHERE v = 'd'"));
    assertNoIdOnTwoShards("sx_mixed", 6);
  }

  private static List<String> rowsOf(String sql) throws Exception {
    List<String> out = new ArrayList<>();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      out.addAll(TestCluster.onShard(shard, sql));
    }
    return out;
  }

  @Test
  void insertSetFillsAnIdForNullOrAnOmittedColumn() throws Exception {
    TestCluster.run("CREATE TABLE sx_set (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, v VARCHAR(10))"
        + " COMMENT='shardex:sharded key=user_id'");
    try (Connection c = TestCluster.connect()) {
      long first = insertReturningId(c, "INSERT INTO sx_set SET id = NULL, user_id = 7, v = 'null'");
      long second = insertReturningId(c, "INSERT INTO sx_set SET user_id = 8, v = 'omitted'");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO sx_set SET v = ?, id = ?, user_id = ?")) {
        ps.setString(1, "bound");
        ps.setNull(2, java.sql.Types.BIGINT);
        ps.setLong(3, 9);
        assertEquals(1, ps.executeUpdate());
      }
      assertTrue(second > first, first + " then " + second);
      assertEquals(List.of("null"), TestCluster.onShard(owner(c, 7), "SELECT v FROM sx_set WHERE id = " + first));
      assertEquals(List.of("omitted"), TestCluster.onShard(owner(c, 8), "SELECT v FROM sx_set WHERE id = " + second));
      assertEquals(List.of("9"), TestCluster.onShard(owner(c, 9), "SELECT user_id FROM sx_set WHERE v = 'bound' AND id > " + second));
    }
    assertNoIdOnTwoShards("sx_set", 3);
  }

  @Test
  void declaringATableOverExistingRowsStartsAfterTheLargestIdOnAnyShard() throws Exception {
    SandboxCluster sandbox = TestCluster.sandbox();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE sx_old (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL)");
        s.execute("INSERT INTO sx_old VALUES (" + (shard == 3 ? 500 : shard + 1) + ", " + shard + ")");
      }
    }
    TestCluster.run("CREATE TABLE IF NOT EXISTS sx_old (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL)"
        + " COMMENT='shardex:sharded key=user_id'");
    try (Connection c = TestCluster.connect()) {
      long id = insertReturningId(c, "INSERT INTO sx_old (user_id) VALUES (77)");
      assertTrue(id > 500, "the sequence starts after the largest id on any shard: " + id);
    }
  }

  @Test
  void anExplicitIdInsideAnotherInstancesBlockIsNeverHandedOutThere() throws Exception {
    TestCluster.run("CREATE TABLE sx_two (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, origin CHAR(1))"
        + " COMMENT='shardex:sharded key=user_id'");
    try (Connection a = TestCluster.connect("shardex.instance=sx-a");
        Connection b = TestCluster.connect("shardex.instance=sx-b")) {
      long first = insertReturningId(a, "INSERT INTO sx_two (user_id, origin) VALUES (1, 'a')");
      // ids first+1 .. first+999 are a's block, not handed out yet: b gives one of them explicitly
      try (Statement s = b.createStatement()) {
        s.executeUpdate("INSERT INTO sx_two (id, user_id, origin) VALUES (" + (first + 3) + ", 2, 'b')");
      }
      for (int i = 0; i < 10; i++) {
        long next = insertReturningId(a, "INSERT INTO sx_two (user_id, origin) VALUES (" + (3 + i) + ", 'a')");
        assertTrue(next != first + 3, "a handed out b's explicit id " + next);
      }
    }
    assertNoIdOnTwoShards("sx_two", 12);
  }

  @Test
  void twoJvmsInsertingExplicitAndGeneratedIdsAtOnceRepeatNoId() throws Exception {
    TestCluster.run("CREATE TABLE sx_jvm (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, origin VARCHAR(20))"
        + " COMMENT='shardex:sharded key=user_id'");
    String url = "jdbc:shardex:" + TestCluster.sandbox().directoryUrl().substring("jdbc:".length())
        + "?shardex.sequenceBlock=50";
    List<Process> children = new ArrayList<>();
    // explicit ids 2001..3000 and 5001..6000, where the sequence hands out its ids (blocks of 50)
    for (long top : new long[] {3_000L, 6_000L}) {
      children.add(new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), SequenceWriterChild.class.getName(), url,
          TestCluster.sandbox().user(), TestCluster.sandbox().password(), Long.toString(top), "5000")
          .redirectErrorStream(true).start());
    }
    for (Process p : children) {
      String out = new String(p.getInputStream().readAllBytes());
      assertTrue(p.waitFor(300, TimeUnit.SECONDS), "child ended");
      assertEquals(0, p.exitValue(), out);
    }
    assertNoIdOnTwoShards("sx_jvm", 10_000);
    assertEquals(10_000L, rowsOf("SELECT COUNT(*) FROM sx_jvm").stream().mapToLong(Long::parseLong).sum(),
        "10,000 rows and 10,000 distinct ids");
  }
}
