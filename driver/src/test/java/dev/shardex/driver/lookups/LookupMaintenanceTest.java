package dev.shardex.driver.lookups;

import static dev.shardex.driver.lookups.LookupRoutingTest.one;
import static dev.shardex.driver.lookups.LookupRoutingTest.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.Lookups;
import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Several lookups on one table (a unique email, a non-unique last name): multi-row inserts over
 * several shards, an UPDATE that changes a looked-up value (new entry first, old one after), an
 * UPDATE to a value another owner holds, and reads by a non-unique value that lives under several keys.
 */
class LookupMaintenanceTest {
  @BeforeAll
  static void createTable() throws SQLException {
    TestCluster.run("CREATE TABLE lm_users (id BIGINT PRIMARY KEY, tenant_id BIGINT NOT NULL, email VARCHAR(100),"
        + " last_name VARCHAR(50), UNIQUE KEY uk_email (email), KEY (tenant_id))"
        + " COMMENT='shardex:sharded key=tenant_id lookup=id unique lookup=email unique lookup=last_name'",
        "INSERT INTO lm_users VALUES (1, 1, 'ann@x', 'Smith'), (2, 2, 'bob@x', 'Smith'), (3, 3, 'cy@x', 'Jones'),"
            + " (4, 4, 'di@x', 'Smith'), (5, 5, NULL, NULL)");
  }

  private static Lookups lookups(Connection c) throws SQLException {
    return TestCluster.cluster(c).directory().lookups();
  }

  private static Lookup lookup(Connection c, String column) throws SQLException {
    return lookups(c).of("lm_users").stream().filter(l -> l.column().equals(column)).findFirst().orElseThrow();
  }

  @Test
  void nonUniqueValue_readsEveryOwnersRows() throws Exception {
    try (Connection c = TestCluster.connect()) {
      assertEquals("3", one(c, "SELECT COUNT(*) FROM lm_users WHERE last_name = ?", "Smith"));
      assertEquals(List.of("1", "2", "4"), ids(c, "SELECT id FROM lm_users WHERE last_name = 'Smith' ORDER BY id"));
      assertEquals(List.of("1", "2", "3"), ids(c, "SELECT id FROM lm_users WHERE last_name IN ('smith', 'Jones') AND id < 4 ORDER BY id"));
      assertEquals(List.of("1", "2", "4"), lookups(c).store().keys(lookup(c, "last_name"), "smith").stream().sorted().toList());
    }
  }

  private static List<String> ids(Connection c, String sql) throws SQLException {
    List<String> out = new java.util.ArrayList<>();
    try (var s = c.createStatement(); var rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Test
  void uniqueEmail_comparesAsTheShardsCollationDoes() throws Exception {
    try (Connection c = TestCluster.connect()) {
      assertEquals("1", one(c, "SELECT id FROM lm_users WHERE email = 'ANN@x'"));
      SQLException e = assertThrows(SQLException.class, () -> update(c, "INSERT INTO lm_users VALUES (6, 6, 'Bob@X', 'Lee')"));
      assertEquals(1062, e.getErrorCode());
      assertEquals("Duplicate entry 'Bob@X' for key 'uk_email'", e.getMessage());
    }
  }

  @Test
  void updateOfALookedUpValue_movesItsEntry_andAValueHeldElsewhereIsADuplicate() throws Exception {
    try (Connection c = TestCluster.connect()) {
      update(c, "INSERT INTO lm_users VALUES (10, 10, 'old@x', 'Moss')");
      assertEquals(1, update(c, "UPDATE lm_users SET email = ?, last_name = ? WHERE id = ?", "new@x", "Moss", 10));
      assertEquals(List.of(), lookups(c).store().keys(lookup(c, "email"), "old@x"));
      assertEquals(List.of("10"), lookups(c).store().keys(lookup(c, "email"), "new@x"));
      assertEquals(List.of("10"), lookups(c).store().keys(lookup(c, "last_name"), "Moss"));
      assertEquals("10", one(c, "SELECT id FROM lm_users WHERE email = 'new@x'"));
      SQLException e = assertThrows(SQLException.class, () -> update(c, "UPDATE lm_users SET email = 'cy@x' WHERE id = 10"));
      assertEquals(1062, e.getErrorCode());
      assertEquals("new@x", one(c, "SELECT email FROM lm_users WHERE id = 10"));
      assertEquals(List.of("10"), lookups(c).store().keys(lookup(c, "email"), "new@x"));
    }
  }

  @Test
  void updateOfTheKey_repointsEveryEntry_soAMoveOfTheNewKeyKeepsThemValid() throws Exception {
    try (Connection c = TestCluster.connect()) {
      update(c, "INSERT INTO lm_users VALUES (40, 40, 'k40@x', 'Rekey')");
      assertEquals(1, update(c, "UPDATE lm_users SET tenant_id = ? WHERE id = ?", 4040, 40)); // placed on the row's shard
      for (String column : List.of("id", "email", "last_name")) {
        String v = column.equals("id") ? "40" : column.equals("email") ? "k40@x" : "Rekey";
        assertEquals(List.of("4040"), lookups(c).store().keys(lookup(c, column), v), column);
      }
      int from = TestCluster.cluster(c).directory().store().lookup("default", "4040").shardId();
      new dev.shardex.directory.move.Mover(TestCluster.cluster(c).directory().store(), TestCluster.sandbox()::connectShard)
          .move("default", "4040", (from + 1) % TestCluster.SHARDS);
      assertEquals("k40@x", one(c, "SELECT email FROM lm_users WHERE id = 40"));
      assertEquals("40", one(c, "SELECT id FROM lm_users WHERE email = 'k40@x'"));
      assertEquals("40", one(c, "SELECT id FROM lm_users WHERE last_name = 'Rekey'"));
    }
  }

  @Test
  void onDuplicateKeyUpdateOfALookedUpColumn_isRefusedByName() throws Exception {
    try (Connection c = TestCluster.connect()) {
      SQLException e = assertThrows(SQLException.class,
          () -> update(c, "INSERT INTO lm_users VALUES (1, 1, 'ann@x', 'S') ON DUPLICATE KEY UPDATE last_name = 'T'"));
      assertTrue(e.getMessage().contains("SHX1211") || e.getMessage().contains("SHX1214"), e.getMessage());
    }
  }

  @Test
  void deleteOfOneOfAnOwnersRowsWithTheSameValue_keepsTheSharedEntry() throws Exception {
    try (Connection c = TestCluster.connect()) {
      update(c, "INSERT INTO lm_users VALUES (20, 20, 'a20@x', 'Twin'), (21, 20, 'b20@x', 'Twin'), (22, 21, 'c21@x', 'Twin')");
      assertEquals(1, update(c, "DELETE FROM lm_users WHERE id = 20"));
      assertEquals(List.of("20", "21"), lookups(c).store().keys(lookup(c, "last_name"), "Twin").stream().sorted().toList());
      assertEquals("2", one(c, "SELECT COUNT(*) FROM lm_users WHERE last_name = 'Twin'"));
    }
  }

  @Test
  void multiStatementText_keepsTheLookupsOfEachPart() throws Exception {
    try (Connection c = TestCluster.connect(); var s = c.createStatement()) {
      s.execute("INSERT INTO lm_users VALUES (50, 50, 'm50@x', 'Multi'); UPDATE lm_users SET email = 'n50@x' WHERE id = 50;"
          + " SELECT email FROM lm_users WHERE id = 50");
      assertEquals(List.of("50"), lookups(c).store().keys(lookup(c, "email"), "n50@x"));
      assertEquals(List.of(), lookups(c).store().keys(lookup(c, "email"), "m50@x"));
      assertEquals("n50@x", one(c, "SELECT email FROM lm_users WHERE id = 50"));
    }
  }

  @Test
  void expressionForALookedUpColumn_isRefusedByName() throws Exception {
    try (Connection c = TestCluster.connect()) {
      SQLException e = assertThrows(SQLException.class, () -> update(c, "UPDATE lm_users SET email = CONCAT(email, 'x') WHERE id = 3"));
      assertTrue(e.getMessage().contains("SHX1214") && e.getMessage().contains("email"), e.getMessage());
    }
  }
}
