package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A write whose rows may stay on a shard although it failed keeps the entries it claimed: inside
 * a transaction, a multi-row INSERT split over two shards that one shard refuses leaves the other
 * shard's row in the transaction, and once committed that row must be found by its id (rolling the
 * claim back, as a write refused by its one shard does, would leave a committed row no lookup
 * finds). In autocommit the held write applies on no shard and leaves no entry.
 */
class LookupPartialWriteTest {
  private static final String SPLIT = "INSERT INTO %s VALUES (10, %d, 'new'), (11, %d, 'taken')";

  @Test
  void splitInsertRefusedByOneShardInATransaction_keepsTheEntryOfTheRowTheOtherWrote() throws Exception {
    long a = LookupBatchTest.owner(0);
    long b = LookupBatchTest.owner(1);
    create("lpw_tx", b); // the second shard refuses the second row
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertThrows(SQLException.class, () -> s.executeUpdate(String.format(SPLIT, "lpw_tx", a, b)));
      c.commit();
      assertEquals(1, TestCluster.countOnShard(0, "lpw_tx", "id = 10"), "the first shard's row stayed and committed");
      assertEquals(Long.toString(a), LookupRoutingTest.one(c, "SELECT owner_id FROM lpw_tx WHERE id = 10"));
    }
    assertEquals(Long.toString(a), LookupBatchTest.entries("lpw_tx", "id").get("10"));
  }

  @Test
  void splitInsertRefusedByOneShardInAutocommit_appliesNowhere() throws Exception {
    long a = LookupBatchTest.owner(0);
    long b = LookupBatchTest.owner(1);
    create("lpw_auto", b);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(String.format(SPLIT, "lpw_auto", a, b)));
      assertEquals(1062, e.getErrorCode(), "the refusing shard's own error, as one server's statement");
    }
    assertEquals(0, TestCluster.countOnShard(0, "lpw_auto", "id = 10"));
    assertEquals(Map.of("1", Long.toString(b)), LookupBatchTest.entries("lpw_auto", "id"));
  }

  @Test
  void insertRefusedByItsOneShard_leavesNoEntry() throws Exception {
    long b = LookupBatchTest.owner(1);
    create("lpw_one", b);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO lpw_one VALUES (2, " + b + ", 'taken')"));
      assertEquals(1062, e.getErrorCode());
    }
    assertEquals(Map.of("1", Long.toString(b)), LookupBatchTest.entries("lpw_one", "id"));
  }

  /** A table whose code is unique per shard only (no lookup on it), with code 'taken' on owner {@code b}'s shard. */
  private static void create(String table, long b) throws SQLException {
    TestCluster.run("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL, code VARCHAR(10),"
        + " UNIQUE KEY uk_code (code)) COMMENT='shardex:sharded key=owner_id lookup=id unique'",
        "INSERT INTO " + table + " VALUES (1, " + b + ", 'taken')");
  }
}
