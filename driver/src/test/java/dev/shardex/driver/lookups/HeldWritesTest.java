package dev.shardex.driver.lookups;

import static dev.shardex.driver.lookups.LookupRoutingTest.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An autocommit write to a table with lookups over several shards runs uncommitted on them until
 * all are written (execute/HeldWrites): the rows are committed after the statement, the connections
 * go back to their pools with autocommit on, and a multi-row INSERT that fails on one shard is
 * rolled back on all of them, as one server's statement would be, with the shard's own error.
 */
class HeldWritesTest {
  /** Two owners whose keys live on different shards. */
  private static long ownerA;
  private static long ownerB;

  @BeforeAll
  static void createTables() throws SQLException {
    TestCluster.run("CREATE TABLE hw_pets (id INT PRIMARY KEY, owner_id BIGINT NOT NULL, name VARCHAR(20) NOT NULL,"
        + " UNIQUE KEY by_name (owner_id, name)) COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "CREATE TABLE hw_plain (id INT PRIMARY KEY, owner_id BIGINT NOT NULL) COMMENT='shardex:sharded key=owner_id'");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (int owner = 1; owner <= 8; owner++) {
        s.executeUpdate("INSERT INTO hw_pets VALUES (" + owner + ", " + owner + ", 'rex')");
      }
      ownerA = 1;
      ownerB = 2;
      while (shardOf(c, ownerB) == shardOf(c, ownerA)) {
        ownerB++;
      }
    }
  }

  @Test
  void multiRowInsertFailingOnOneShard_appliesNowhere_andReportsTheShardsError() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLIntegrityConstraintViolationException.class, () -> s.executeUpdate(
          "INSERT INTO hw_pets VALUES (100, " + ownerA + ", 'new'), (101, " + ownerB + ", 'rex')")); // ownerB has a 'rex'
      assertEquals(1062, e.getErrorCode(), e.getMessage());
      assertTrue(e.getMessage().contains("Duplicate entry"), e.getMessage());
      assertEquals(0, rowsWithId(100) + rowsWithId(101), "no row of the statement on any shard");
      assertEquals(List.of(), entries(c, "100", "101"), "no entry of the statement");
      assertEquals(2, s.executeUpdate("INSERT INTO hw_pets VALUES (100, " + ownerA + ", 'new'), (101, " + ownerB + ", 'new')"));
      assertEquals(Long.toString(ownerB), one(c, "SELECT owner_id FROM hw_pets WHERE id = 101"));
    }
  }

  @Test
  void autocommitInsert_isCommitted_andItsConnectionsGoBackInAutocommit() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO hw_pets VALUES (200, " + ownerA + ", 'a'), (201, " + ownerB + ", 'b')");
      assertEquals(2, rowsWithId(200) + rowsWithId(201), "seen by another connection: committed");
      // the pooled connections the insert used, now for a table without lookups: each write must commit on its own
      for (int i = 0; i < 8; i++) {
        s.executeUpdate("INSERT INTO hw_plain VALUES (" + (200 + i) + ", " + (i % 2 == 0 ? ownerA : ownerB) + ")");
      }
      long plain = 0;
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        plain += TestCluster.countOnShard(shard, "hw_plain", "id BETWEEN 200 AND 207");
      }
      assertEquals(8, plain, "rows of later plain writes, seen by another connection");
    }
  }

  @Test
  void stickySession_insertIsCommitted() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("SET @shardex_test = 1"); // pins the shard connections to the session
      s.executeUpdate("INSERT INTO hw_pets VALUES (300, " + ownerA + ", 'c'), (301, " + ownerB + ", 'd')");
      assertEquals(2, rowsWithId(300) + rowsWithId(301), "seen by another connection: committed");
      s.executeUpdate("INSERT INTO hw_plain VALUES (300, " + ownerA + ")");
      assertEquals(1, TestCluster.countOnShard(shardOf(c, ownerA), "hw_plain", "id = 300"));
      assertEquals("1", one(c, "SELECT @@autocommit"));
    }
  }

  private static int shardOf(Connection c, long owner) throws SQLException {
    return TestCluster.cluster(c).directory().store().lookup("default", Long.toString(owner)).shardId();
  }

  private static long rowsWithId(int id) throws SQLException {
    return LookupUniquenessTest.rowsAcrossShards("hw_pets", id);
  }

  private static List<String> entries(Connection c, String... vs) throws SQLException {
    Lookup l = TestCluster.cluster(c).directory().lookups().of("hw_pets").get(0);
    List<String> keys = new ArrayList<>();
    for (String v : vs) {
      keys.addAll(TestCluster.cluster(c).directory().lookups().store().keys(l, v));
    }
    return keys;
  }
}
