package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A write whose rows may be on a shard although it failed keeps the entries it claimed: a
 * multi-row INSERT split over two shards that one shard refuses leaves the other shard's row
 * committed (autocommit), and that row must still be found by its id. Rolling the claim back (as a
 * write refused by its one shard does) would leave a committed row no lookup finds.
 */
class LookupPartialWriteTest {
  @Test
  void splitInsertRefusedByOneShard_keepsTheEntryOfTheRowTheOtherWrote() throws Exception {
    long a = LookupBatchTest.owner(0);
    long b = LookupBatchTest.owner(1);
    create("lpw_items", b); // the second shard refuses the second row
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO lpw_items VALUES (10, " + a + ", 'new'), (11, " + b + ", 'taken')"));
      assertTrue(e.getMessage().contains("SHX"), e.getMessage());
      assertEquals(1, TestCluster.countOnShard(0, "lpw_items", "id = 10"), "the first shard applied its row");
      assertEquals(Long.toString(a), LookupRoutingTest.one(c, "SELECT owner_id FROM lpw_items WHERE id = 10"));
    }
    assertEquals(Long.toString(a), LookupBatchTest.entries("lpw_items", "id").get("10"));
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
