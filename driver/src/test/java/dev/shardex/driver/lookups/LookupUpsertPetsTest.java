package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Spring PetClinic shape ({@code pets} sharded by {@code owner_id}, {@code lookup=id unique}):
 * seed scripts re-run with REPLACE, a mapper's ON DUPLICATE KEY UPDATE that sets every column, and
 * two driver instances upserting the same ids for different owners at the same moment.
 */
class LookupUpsertPetsTest {
  static final String PETS = "CREATE TABLE ups_pets (id INT(4) UNSIGNED NOT NULL PRIMARY KEY, name VARCHAR(30),"
      + " birth_date DATE, type_id INT(4) UNSIGNED NOT NULL, owner_id INT(4) UNSIGNED NOT NULL, visits INT NOT NULL DEFAULT 0,"
      + " INDEX (owner_id))";
  static final String MAPPER = "INSERT INTO ups_pets (id, name, birth_date, type_id, owner_id) VALUES (?, ?, ?, ?, ?)"
      + " ON DUPLICATE KEY UPDATE id = VALUES(id), name = VALUES(name), birth_date = VALUES(birth_date),"
      + " type_id = VALUES(type_id), owner_id = VALUES(owner_id)";
  static final int IDS = 40;
  static long[] owners;

  @BeforeAll
  static void createTable() throws SQLException {
    UpsertTwin.create(PETS, "shardex:sharded key=owner_id lookup=id unique");
    TestCluster.run(PETS.replace("ups_pets", "ups_race") + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (UpsertTwin twin = twin()) {
      owners = twin.keysOnDistinctShards(9100, 2);
    }
  }

  static UpsertTwin twin() throws SQLException {
    return new UpsertTwin("ups_pets", "owner_id", "id, name, birth_date, type_id, owner_id, visits", "");
  }

  @Test
  void seedScript_rerunWithReplace_countsAsMySqlAndKeepsOneEntryPerPet() throws Exception {
    try (UpsertTwin twin = twin()) {
      for (int run = 1; run <= 2; run++) {
        for (int id = 1; id <= 6; id++) {
          // the re-run counts as MariaDB counts it (both() compares): 1 here, for a row it replaces with an identical one
          assertEquals(1, twin.both("REPLACE INTO ups_pets VALUES (" + id + ", 'Leo', '2000-09-07', 1, " + owners[id % 2]
              + ", 0)"));
        }
      }
      assertEquals(4, twin.both("REPLACE INTO ups_pets VALUES (1, 'Basil', '2002-08-06', 6, " + owners[0] + ", 0), (2, 'Rosy',"
          + " '2001-04-17', 2, " + owners[0] + ", 0)"), "pet 1 changes owners (and shards), pet 2 stays: 2 + 2");
    }
  }

  @Test
  void mapperUpsertSettingEveryColumn_runsForItsOwner_andIsRefusedByNameForAnotherOwner() throws Exception {
    try (UpsertTwin twin = twin()) {
      assertEquals(1, twin.both(MAPPER, 20, "Max", "2012-09-04", 1, owners[0]));
      assertEquals(2, twin.both(MAPPER, 20, "Maxi", "2012-09-04", 1, owners[0]));
      SQLException e = assertThrows(SQLException.class,
          () -> UpsertTwin.update(twin.shardex, MAPPER, 20, "Moved", "2012-09-04", 1, owners[1]));
      assertTrue(e.getMessage().startsWith("Shardex SHX1203: UPDATE of table ups_pets sets its shard key owner_id in ON DUPLICATE"
          + " KEY UPDATE to 'VALUES(owner_id)' for the row it collides with, which has owner_id " + owners[0]), e.getMessage());
      twin.assertSame("a refused move");
      assertEquals(2, twin.both("INSERT INTO ups_pets (id, name, birth_date, type_id, owner_id) VALUES (?, ?, ?, ?, ?)"
          + " ON DUPLICATE KEY UPDATE name = VALUES(name), visits = visits + 1", 20, "Kept", "2012-09-04", 1, owners[1]));
    }
  }

  @Test
  void twoInstancesUpsertingEachIdForDifferentOwnersAtOnce_leaveOneRowPerId() throws Exception {
    long[] replaced = race("REPLACE INTO ups_race (id, name, birth_date, type_id, owner_id) VALUES (?, 'r', NULL, 1, ?)", 100);
    long[] updated = race("INSERT INTO ups_race (id, name, birth_date, type_id, owner_id) VALUES (?, 'u', NULL, 1, ?)"
        + " ON DUPLICATE KEY UPDATE visits = visits + 1", 200);
    for (int i = 0; i < IDS; i++) {
      assertEquals(3, replaced[i], "REPLACE of id " + (100 + i) + ": one inserts (1), the other replaces it (2)");
      assertEquals(3, updated[i], "ON DUPLICATE KEY UPDATE of id " + (200 + i) + ": one inserts (1), the other updates (2)");
    }
    try (UpsertTwin twin = twin()) {
      for (int i = 0; i < IDS; i++) {
        assertEquals(1, LookupUniquenessTest.rowsAcrossShards("ups_race", 100 + i), "rows with id " + (100 + i));
        assertEquals(1, LookupUniquenessTest.rowsAcrossShards("ups_race", 200 + i), "rows with id " + (200 + i));
        String owner = LookupRoutingTest.one(twin.shardex, "SELECT owner_id FROM ups_race WHERE id = ?", 100 + i);
        assertEquals(java.util.List.of(owner), TestCluster.cluster(twin.shardex).directory().lookups().store()
            .keys(TestCluster.cluster(twin.shardex).directory().lookups().of("ups_race").get(0), Integer.toString(100 + i)));
        assertEquals("1", LookupRoutingTest.one(twin.shardex, "SELECT visits FROM ups_race WHERE id = ?", 200 + i));
      }
    }
  }

  /** Runs the statement for ids {@code from}.. on two driver instances in step, each for its own owner; the counts summed per id. */
  private static long[] race(String sql, int from) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CyclicBarrier start = new CyclicBarrier(2);
    try (Connection a = TestCluster.connect("shardex.instance=ups-a"); Connection b = TestCluster.connect("shardex.instance=ups-b")) {
      Future<long[]> fa = pool.submit(() -> side(a, sql, from, owners[0], start));
      Future<long[]> fb = pool.submit(() -> side(b, sql, from, owners[1], start));
      long[] counts = fa.get();
      long[] other = fb.get();
      for (int i = 0; i < IDS; i++) {
        counts[i] += other[i];
      }
      return counts;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long[] side(Connection c, String sql, int from, long owner, CyclicBarrier start) throws Exception {
    long[] counts = new long[IDS];
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < IDS; i++) {
        ps.setInt(1, from + i);
        ps.setLong(2, owner);
        start.await();
        counts[i] = ps.executeUpdate();
      }
    }
    return counts;
  }
}
