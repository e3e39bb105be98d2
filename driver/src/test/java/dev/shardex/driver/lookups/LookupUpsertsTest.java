package dev.shardex.driver.lookups;

import static dev.shardex.driver.lookups.LookupRoutingTest.one;
import static dev.shardex.driver.lookups.LookupRoutingTest.route;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.TestCluster;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * REPLACE and INSERT ... ON DUPLICATE KEY UPDATE into a table whose PRIMARY KEY (id) and UNIQUE
 * KEY (email) lack the shard key and have unique lookups, checked against one plain MariaDB
 * database holding every row ({@link UpsertTwin}): each statement's count, the rows afterwards,
 * the shard each row is on, and the lookup entries (one per row, naming its key).
 */
class LookupUpsertsTest {
  static final String USERS = "CREATE TABLE ups_users (id BIGINT PRIMARY KEY, tenant_id BIGINT NOT NULL, email VARCHAR(100),"
      + " team VARCHAR(20), name VARCHAR(30), visits INT NOT NULL DEFAULT 0, UNIQUE KEY uk_email (email), KEY (tenant_id))";
  static final String COLUMNS = "id, tenant_id, email, team, name, visits";
  static final String INSERT = "INSERT INTO ups_users (id, tenant_id, email, team, name, visits) VALUES ";

  /** Tenants on four different shards. */
  static long[] t;

  @BeforeAll
  static void createTable() throws SQLException {
    UpsertTwin.create(USERS, "shardex:sharded key=tenant_id lookup=id unique lookup=email unique lookup=team");
    try (UpsertTwin twin = twin("")) {
      t = twin.keysOnDistinctShards(8100, TestCluster.SHARDS);
    }
  }

  static UpsertTwin twin(String options) throws SQLException {
    return new UpsertTwin("ups_users", "tenant_id", COLUMNS, options);
  }

  private static String row(long id, long tenant, String email, String name) {
    return "(" + id + ", " + tenant + ", " + (email == null ? "NULL" : "'" + email + "'") + ", 'red', '" + name + "', 1)";
  }

  private static Lookup lookup(UpsertTwin twin, String column) throws SQLException {
    return TestCluster.cluster(twin.shardex).directory().lookups().of("ups_users").stream()
        .filter(l -> l.column().equals(column)).findFirst().orElseThrow();
  }

  @Test
  void replace_ofAnIdAnotherTenantHoldsOnAnotherShard_deletesThatRowAndInsertsOnTheNewShard() throws Exception {
    try (UpsertTwin twin = twin("")) {
      assertEquals(1, twin.both(INSERT + row(101, t[0], "a101@x", "first")));
      assertEquals(2, twin.both("REPLACE INTO ups_users (id, tenant_id, email, team, name) VALUES (101, ?, 'b101@x', 'blue',"
          + " 'second')", t[1]));
      assertEquals(0, TestCluster.countOnShard(twin.shardOf(t[0]), "ups_users", "id = 101"), "gone from the old shard");
      assertEquals("second", one(twin.shardex, "SELECT name FROM ups_users WHERE id = 101"));
      assertEquals(List.of(Integer.toString(twin.shardOf(t[1]))), route(twin.shardex, "SELECT name FROM ups_users WHERE id = 101"));
      assertEquals(List.of(), TestCluster.cluster(twin.shardex).directory().lookups().store().keys(lookup(twin, "email"), "a101@x"));
    }
  }

  @Test
  void replace_sameTenant_noHolder_andTheSeedRerun_countAsMySql() throws Exception {
    try (UpsertTwin twin = twin("")) {
      assertEquals(1, twin.both("REPLACE INTO ups_users VALUES " + row(111, t[2], "s111@x", "seed")));
      assertEquals(2, twin.both("REPLACE INTO ups_users VALUES " + row(111, t[2], "s111@x", "seed")));
      assertEquals(2, twin.both("REPLACE INTO ups_users VALUES " + row(111, t[2], "new111@x", "renamed")));
      assertEquals(4, twin.both("REPLACE INTO ups_users VALUES " + row(112, t[3], "s112@x", "a") + ", " + row(113, t[0], "s113@x", "b")
          + ", " + row(112, t[3], "s112@x", "c")), "the third row replaces the first, same tenant");
    }
  }

  @Test
  void replace_collidingWithTwoRowsOfTwoTenants_deletesBoth() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(121, t[0], "a121@x", "x") + ", " + row(122, t[1], "b122@x", "y"));
      assertEquals(3, twin.both("REPLACE INTO ups_users VALUES " + row(121, t[2], "b122@x", "both")));
      assertEquals(4, twin.both("REPLACE INTO ups_users VALUES " + row(123, t[3], "c123@x", "n") + ", " + row(121, t[1], "d121@x", "m")
          + ", " + row(124, t[0], null, "k")), "multi-row: one row replaces a row of another tenant");
    }
  }

  @Test
  void replace_ofAnOrphanEntry_repointsIt() throws Exception {
    try (UpsertTwin twin = twin("")) {
      TestCluster.cluster(twin.shardex).directory().lookups().store().claim(lookup(twin, "id"), "131", Long.toString(t[1]));
      assertEquals(1, twin.both("REPLACE INTO ups_users VALUES " + row(131, t[0], "o131@x", "orphan")));
    }
  }

  @Test
  void replace_prepared_andInsideATransaction() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(141, t[0], "p141@x", "p"));
      assertEquals(2, twin.both("REPLACE INTO ups_users (id, tenant_id, email, team, name) VALUES (?, ?, ?, 'red', ?)", 141, t[3],
          "q141@x", "q"));
      twin.shardex.setAutoCommit(false);
      assertEquals(2, UpsertTwin.update(twin.shardex, "REPLACE INTO ups_users VALUES " + row(141, t[3], "r141@x", "same tenant")));
      SQLException e = assertThrows(SQLException.class,
          () -> UpsertTwin.update(twin.shardex, "REPLACE INTO ups_users VALUES " + row(141, t[2], "s141@x", "other tenant")));
      assertTrue(e.getMessage().startsWith("Shardex SHX1215: REPLACE into table ups_users inside a transaction gives id '141',"
          + " which the row of tenant_id " + t[3] + " holds on shard " + twin.shardOf(t[3])), e.getMessage());
      twin.shardex.rollback();
      twin.shardex.setAutoCommit(true);
      twin.assertRows("a rolled-back transaction");
      // the first REPLACE's claim for its new email committed with the statement: an extra entry, as a rolled-back INSERT's
      var store = TestCluster.cluster(twin.shardex).directory().lookups().store();
      assertEquals(List.of(Long.toString(t[3])), store.keys(lookup(twin, "email"), "r141@x"));
      store.remove(lookup(twin, "email"), "r141@x", Long.toString(t[3])); // what 'lookups verify --repair' does
      twin.assertSame("the extra entry's repair");
    }
  }

  @Test
  void onDuplicateKeyUpdate_ofAnIdAnotherTenantHolds_updatesThatRowOnItsShard() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(201, t[0], "a201@x", "old"));
      String upsert = INSERT + row(201, t[1], "b201@x", "new") + " ON DUPLICATE KEY UPDATE visits = visits + 1, name = VALUES(name)";
      assertEquals(2, twin.both(upsert));
      assertEquals(1, twin.both(INSERT + row(201, t[2], "c201@x", "new") + " ON DUPLICATE KEY UPDATE name = VALUES(name)"),
          "unchanged: 1 with Connector/J's default (found rows)");
      assertEquals(1, TestCluster.countOnShard(twin.shardOf(t[0]), "ups_users", "id = 201"), "the row stays with its tenant");
      assertEquals(3, twin.both(INSERT + row(202, t[3], "a202@x", "n") + ", " + row(201, t[1], "b201@x", "newer")
          + " ON DUPLICATE KEY UPDATE name = VALUES(name)"), "one row inserted, one updated on another shard");
      assertEquals(2, twin.both(INSERT + "(?, ?, ?, 'red', ?, 1) ON DUPLICATE KEY UPDATE visits = visits + ?, name = VALUES(name)",
          201, t[2], "d201@x", "bound", 5));
      assertEquals(2, twin.both(INSERT + row(203, t[2], "a201@x", "byEmail") + " ON DUPLICATE KEY UPDATE name = VALUES(name)"),
          "a collision on the unique email updates that row");
    }
  }

  @Test
  void onDuplicateKeyUpdate_collidingWithTwoRows_updatesThePrimaryKeysRow_asMySqlChecksThatKeyFirst() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(251, t[0], "a251@x", "n") + ", " + row(252, t[1], "a252@x", "n") + ", " + row(253, t[2], "a253@x", "n"));
      assertEquals(2, twin.both(INSERT + row(251, t[3], "a252@x", "x") + " ON DUPLICATE KEY UPDATE name = 'x'"),
          "rows of two other tenants: the id's");
      assertEquals(2, twin.both(INSERT + row(253, t[2], "a252@x", "y") + " ON DUPLICATE KEY UPDATE name = 'y'"),
          "the id's row is the row's own tenant's (its shard updates it), the email's another tenant's");
      assertEquals(2, twin.both(INSERT + row(252, t[3], "a253@x", "z") + " ON DUPLICATE KEY UPDATE name = 'z'"));
    }
  }

  @Test
  void onDuplicateKeyUpdate_collidingWithTwoRowsOnSecondaryKeys_isRefused_withOneRowOnBoth_updatesIt() throws Exception {
    UpsertTwin.create("CREATE TABLE ups_codes (id BIGINT PRIMARY KEY, tenant_id BIGINT NOT NULL, email VARCHAR(40),"
        + " phone VARCHAR(20), n INT NOT NULL DEFAULT 0, UNIQUE KEY (email), UNIQUE KEY (phone))",
        "shardex:sharded key=tenant_id lookup=id unique lookup=email unique lookup=phone unique");
    try (UpsertTwin twin = new UpsertTwin("ups_codes", "tenant_id", "id, tenant_id, email, phone, n", "")) {
      String insert = "INSERT INTO ups_codes (id, tenant_id, email, phone) VALUES ";
      twin.both(insert + "(1, " + t[0] + ", 'a@x', '111'), (2, " + t[1] + ", 'b@x', '222')");
      assertRefused(twin, insert + "(3, " + t[2] + ", 'a@x', '222') ON DUPLICATE KEY UPDATE n = n + 1",
          "Shardex SHX1215: INSERT ... ON DUPLICATE KEY UPDATE into table ups_codes gives a row (tenant_id " + t[2]
              + ") that collides with two rows on keys other than the PRIMARY KEY, email 'a@x', which the row of tenant_id "
              + t[0] + " holds on shard " + twin.shardOf(t[0]) + " and phone '222', which the row of tenant_id " + t[1]);
      assertEquals(2, twin.both(insert + "(4, " + t[3] + ", 'a@x', '111') ON DUPLICATE KEY UPDATE n = n + 1"),
          "both keys collide with one row");
    }
  }

  @Test
  void onDuplicateKeyUpdate_twoRowsMeetingOneRow_runInTheStatementsOrder_orAreRefused() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(261, t[0], "a261@x", "n"));
      String upsert = " ON DUPLICATE KEY UPDATE name = CONCAT(name, VALUES(name))";
      assertEquals(4, twin.both(INSERT + row(261, t[1], "z261@x", "b") + ", " + row(262, t[0], "a261@x", "c") + upsert),
          "another tenant's row by id first (its update runs first), then the row's own tenant's by email");
      assertRefused(twin, INSERT + row(262, t[0], "a261@x", "d") + ", " + row(261, t[1], "z261@x", "e") + upsert,
          "Shardex SHX1215: INSERT ... ON DUPLICATE KEY UPDATE into table ups_users gives a row that collides with the row of"
              + " tenant_id " + t[0] + " on shard " + twin.shardOf(t[0]) + " and another row of that key in the same statement"
              + " before it that collides with it too");
    }
  }

  @Test
  void onDuplicateKeyUpdate_aRowUpdatedElsewhere_keepsTheEntryOfAValueALaterRowWrites() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(271, t[0], "a271@x", "n"));
      // the first row updates tenant 0's row by its email; the second, with the same id and tenant, is inserted
      assertEquals(3, twin.both(INSERT + row(272, t[1], "a271@x", "u") + ", " + row(272, t[1], "b272@x", "v")
          + " ON DUPLICATE KEY UPDATE name = VALUES(name)"));
      assertEquals(List.of(Integer.toString(twin.shardOf(t[1]))), route(twin.shardex, "SELECT name FROM ups_users WHERE id = 272"));
    }
  }

  @Test
  void onDuplicateKeyUpdate_sameTenant_andNoHolder_runOnTheShard() throws Exception {
    try (UpsertTwin twin = twin("")) {
      assertEquals(1, twin.both(INSERT + row(211, t[1], "a211@x", "n") + " ON DUPLICATE KEY UPDATE visits = visits + 1"));
      assertEquals(2, twin.both(INSERT + row(211, t[1], "a211@x", "n") + " ON DUPLICATE KEY UPDATE visits = visits + 1"));
      assertEquals(2, twin.both(INSERT + row(211, t[1], "other211@x", "n") + " ON DUPLICATE KEY UPDATE visits = visits + 1"),
          "the row keeps its email: the entry claimed for the other email goes");
    }
  }

  @Test
  void onDuplicateKeyUpdate_countsAsMySqlWithUseAffectedRows() throws Exception {
    try (UpsertTwin twin = twin("useAffectedRows=true")) {
      twin.both(INSERT + row(221, t[0], "a221@x", "n"));
      assertEquals(0, twin.both(INSERT + row(221, t[1], "b221@x", "n") + " ON DUPLICATE KEY UPDATE name = VALUES(name)"));
      assertEquals(2, twin.both(INSERT + row(221, t[1], "b221@x", "m") + " ON DUPLICATE KEY UPDATE name = VALUES(name)"));
      assertEquals(0, twin.both(INSERT + row(221, t[0], "a221@x", "m") + " ON DUPLICATE KEY UPDATE name = VALUES(name)"));
    }
  }

  @Test
  void onDuplicateKeyUpdate_insideATransaction_commitsOrRollsBackWithIt() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(231, t[0], "a231@x", "n"));
      twin.shardex.setAutoCommit(false);
      assertEquals(2, UpsertTwin.update(twin.shardex, INSERT + row(231, t[2], "b231@x", "rolled back")
          + " ON DUPLICATE KEY UPDATE name = VALUES(name)"));
      twin.shardex.rollback();
      twin.assertSame("a rolled-back upsert");
      twin.oracle.setAutoCommit(false);
      assertEquals(2, twin.both(INSERT + row(231, t[2], "b231@x", "committed") + " ON DUPLICATE KEY UPDATE name = VALUES(name)"));
      twin.shardex.commit();
      twin.oracle.commit();
      twin.shardex.setAutoCommit(true);
      twin.oracle.setAutoCommit(true);
      twin.assertSame("a committed upsert");
    }
  }

  @Test
  void onDuplicateKeyUpdate_whatCannotBeDoneExactly_isRefusedByNameAndChangesNothing() throws Exception {
    try (UpsertTwin twin = twin("")) {
      twin.both(INSERT + row(241, t[0], "a241@x", "n") + ", " + row(242, t[1], "a242@x", "n"));
      assertRefused(twin, INSERT + row(241, t[2], "z241@x", "x") + " ON DUPLICATE KEY UPDATE tenant_id = VALUES(tenant_id)",
          "Shardex SHX1203: UPDATE of table ups_users sets its shard key tenant_id in ON DUPLICATE KEY UPDATE to"
              + " 'VALUES(tenant_id)' for the row it collides with, which has tenant_id " + t[0]);
      assertRefused(twin, "INSERT INTO ups_users (id, tenant_id, email, team, name) VALUES (241, " + t[2]
          + ", 'z241@x', 'red', CONCAT('a', 'b')) ON DUPLICATE KEY UPDATE name = VALUES(name)",
          "Shardex SHX1215: INSERT ... ON DUPLICATE KEY UPDATE into table ups_users reads VALUES(name)");
      assertRefused(twin, INSERT + row(243, t[2], "same@x", "x") + ", " + row(244, t[3], "same@x", "y")
          + " ON DUPLICATE KEY UPDATE name = 'x'", "Shardex SHX1215: INSERT ... ON DUPLICATE KEY UPDATE into table ups_users"
          + " gives email 'same@x' in two rows of different tenant_id");
    }
  }

  private static void assertRefused(UpsertTwin twin, String sql, String start) throws SQLException {
    SQLException e = assertThrows(SQLException.class, () -> UpsertTwin.update(twin.shardex, sql), sql);
    assertTrue(e.getMessage().startsWith(start), e.getMessage());
    assertEquals("0AS00", e.getSQLState());
    twin.assertSame("a refused " + sql);
  }
}
