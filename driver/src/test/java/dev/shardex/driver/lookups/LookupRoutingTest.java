package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.move.Mover;
import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rows of a table sharded by owner_id, addressed by their own id through {@code lookup=id unique}
 * (the Spring PetClinic shape): reads, updates and deletes by id go to the owner's shard only,
 * unknown ids find nothing, and the lookup follows every write.
 */
class LookupRoutingTest {
  static final String PETS = "CREATE TABLE lr_pets (id INT(4) UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(30),"
      + " owner_id INT(4) UNSIGNED NOT NULL, INDEX (owner_id)) COMMENT='shardex:sharded key=owner_id lookup=id unique'";

  @BeforeAll
  static void createTables() throws SQLException {
    TestCluster.run(PETS);
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (int id = 1; id <= 12; id++) {
        s.executeUpdate("INSERT INTO lr_pets VALUES (" + id + ", 'pet " + id + "', " + (100 + id % 6) + ")");
      }
    }
  }

  static int shardOf(Connection c, long ownerId) throws SQLException {
    return TestCluster.cluster(c).directory().store().lookup("default", Long.toString(ownerId)).shardId();
  }

  static List<String> route(Connection c, String sql) throws SQLException {
    List<String> shards = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
      while (rs.next()) {
        shards.add(rs.getString(1));
      }
    }
    return shards;
  }

  static String one(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      return ps.executeUpdate();
    }
  }

  @Test
  void selectById_goesToTheOwnersShardOnly() throws Exception {
    try (Connection c = TestCluster.connect()) {
      assertEquals("pet 7", one(c, "SELECT name FROM lr_pets WHERE id = ?", 7));
      assertEquals(List.of(Integer.toString(shardOf(c, 101))), route(c, "SELECT name FROM lr_pets WHERE id = 7"));
      assertEquals("pet 7", one(c, "SELECT name FROM lr_pets p WHERE p.id = 7"));
      assertEquals("2", one(c, "SELECT COUNT(*) FROM lr_pets WHERE id IN (?, ?, 999)", 3, 4));
    }
  }

  @Test
  void updateById_changesTheRowOnItsShard() throws Exception {
    try (Connection c = TestCluster.connect()) {
      assertEquals(1, update(c, "update lr_pets set name=?, owner_id=? where id=?", "Leo", 102, 8));
      assertEquals(List.of("Leo"), TestCluster.onShard(shardOf(c, 102), "SELECT name FROM lr_pets WHERE id = 8"));
    }
  }

  @Test
  void unknownId_findsNothing_changesNothing() throws Exception {
    try (Connection c = TestCluster.connect()) {
      assertEquals(null, one(c, "SELECT name FROM lr_pets WHERE id = ?", 123456));
      assertEquals(0, update(c, "UPDATE lr_pets SET name = 'x' WHERE id = ?", 123456));
      assertEquals(0, update(c, "DELETE FROM lr_pets WHERE id = ?", 123456));
      assertEquals(1, route(c, "SELECT name FROM lr_pets WHERE id = 123456").size());
    }
  }

  @Test
  void deleteById_removesTheRowAndItsEntry() throws Exception {
    try (Connection c = TestCluster.connect()) {
      update(c, "INSERT INTO lr_pets (id, name, owner_id) VALUES (500, 'gone', 103)");
      Lookup id = TestCluster.cluster(c).directory().lookups().of("lr_pets").get(0);
      assertEquals(List.of("103"), TestCluster.cluster(c).directory().lookups().store().keys(id, "500"));
      assertEquals(1, update(c, "DELETE FROM lr_pets WHERE id = ?", 500));
      assertEquals(List.of(), TestCluster.cluster(c).directory().lookups().store().keys(id, "500"));
      assertEquals(null, one(c, "SELECT name FROM lr_pets WHERE id = 500"));
    }
  }

  @Test
  void deleteInATransaction_keepsTheEntryUntilCommit_andRollbackKeepsIt() throws Exception {
    try (Connection c = TestCluster.connect()) {
      update(c, "INSERT INTO lr_pets (id, name, owner_id) VALUES (501, 'tx', 104)");
      Lookup id = TestCluster.cluster(c).directory().lookups().of("lr_pets").get(0);
      c.setAutoCommit(false);
      assertEquals(1, update(c, "DELETE FROM lr_pets WHERE id = 501"));
      c.rollback();
      assertEquals("tx", one(c, "SELECT name FROM lr_pets WHERE id = 501"));
      assertEquals(1, update(c, "DELETE FROM lr_pets WHERE id = 501"));
      assertEquals(List.of("104"), TestCluster.cluster(c).directory().lookups().store().keys(id, "501"));
      c.commit();
      assertEquals(List.of(), TestCluster.cluster(c).directory().lookups().store().keys(id, "501"));
    }
  }

  @Test
  void newPetWithoutId_getsASequenceIdAndIsFoundByIt() throws Exception {
    TestCluster.run(PETS.replace("lr_pets", "lr_new_pets")); // its own table: generated ids never meet the other tests' ids
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO lr_new_pets (name, owner_id) VALUES ('Basil', 105)", Statement.RETURN_GENERATED_KEYS);
      long id;
      try (ResultSet keys = s.getGeneratedKeys()) {
        assertTrue(keys.next());
        id = keys.getLong(1);
      }
      assertEquals("Basil", one(c, "SELECT name FROM lr_new_pets WHERE id = ?", id));
    }
  }

  @Test
  void duplicateIdForAnotherOwner_failsAsMysqlDoes() throws Exception {
    try (Connection c = TestCluster.connect()) {
      SQLException e = assertThrows(SQLException.class,
          () -> update(c, "INSERT INTO lr_pets (id, name, owner_id) VALUES (3, 'twin', 777)"));
      assertEquals("23000", e.getSQLState());
      assertEquals(1062, e.getErrorCode());
      assertEquals("Duplicate entry '3' for key 'PRIMARY'", e.getMessage());
      assertEquals(null, TestCluster.cluster(c).directory().store().lookup("default", "777") == null ? null
          : one(c, "SELECT name FROM lr_pets WHERE owner_id = 777"));
      SQLException same = assertThrows(SQLException.class,
          () -> update(c, "INSERT INTO lr_pets (id, name, owner_id) VALUES (3, 'twin', 103)"));
      assertEquals(1062, same.getErrorCode(), "the shard's own duplicate: " + same.getMessage());
    }
  }

  @Test
  void insertIgnoreSeed_rerunSkipsEveryRow_andADuplicateOnAnotherOwnerIsSkipped() throws Exception {
    TestCluster.run("CREATE TABLE lr_seed (id INT PRIMARY KEY, owner_id INT NOT NULL, name VARCHAR(20))"
        + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (int run = 0; run < 2; run++) {
        for (int id = 1; id <= 8; id++) {
          s.executeUpdate("INSERT IGNORE INTO lr_seed VALUES (" + id + ", " + (id % 3) + ", 'seed " + id + "')");
        }
      }
      assertEquals(0, s.executeUpdate("INSERT IGNORE INTO lr_seed VALUES (5, 9, 'other owner')"));
      assertEquals(1, s.executeUpdate("INSERT IGNORE INTO lr_seed VALUES (5, 9, 'x'), (9, 9, 'new')"));
      assertEquals("9", one(c, "SELECT COUNT(*) FROM lr_seed"));
      assertEquals("seed 5", one(c, "SELECT name FROM lr_seed WHERE id = 5"));
      assertEquals(2, s.executeUpdate("REPLACE INTO lr_seed VALUES (5, 9, 'r')"), "REPLACE deletes owner 2's row 5, inserts owner 9's");
      assertEquals("9", one(c, "SELECT owner_id FROM lr_seed WHERE id = 5"));
      assertEquals("9", one(c, "SELECT COUNT(*) FROM lr_seed"));
    }
  }

  @Test
  void orphanEntry_isRepointed_andAnExtraEntryFindsNothing() throws Exception {
    try (Connection c = TestCluster.connect()) {
      Lookup id = TestCluster.cluster(c).directory().lookups().of("lr_pets").get(0);
      TestCluster.cluster(c).directory().lookups().store().claim(id, "900", "105"); // no such row: a crash's leftover
      assertEquals(null, one(c, "SELECT name FROM lr_pets WHERE id = 900"));
      assertEquals(0, update(c, "UPDATE lr_pets SET name = 'x' WHERE id = 900"));
      assertEquals(1, update(c, "INSERT INTO lr_pets (id, name, owner_id) VALUES (900, 'reclaimed', 101)"));
      assertEquals(List.of("101"), TestCluster.cluster(c).directory().lookups().store().keys(id, "900"));
      assertEquals("reclaimed", one(c, "SELECT name FROM lr_pets WHERE id = 900"));
    }
  }

  @Test
  void staleCachedEntry_aReadStillFindsTheRow() throws Exception {
    try (Connection reader = TestCluster.connect("shardex.instance=lr-stale&shardex.leaseMs=600000&shardex.pollMs=300000");
        Connection writer = TestCluster.connect()) {
      update(writer, "INSERT INTO lr_pets (id, name, owner_id) VALUES (901, 'first', 101)");
      assertEquals("first", one(reader, "SELECT name FROM lr_pets WHERE id = 901")); // cached: 901 -> 101
      update(writer, "DELETE FROM lr_pets WHERE id = 901");
      int moved = 0;
      for (long owner = 102; moved == 0 && owner < 140; owner++) {
        update(writer, "INSERT INTO lr_pets (id, name, owner_id) VALUES (901, 'second', ?)", owner);
        if (shardOf(writer, owner) == shardOf(writer, 101)) {
          update(writer, "DELETE FROM lr_pets WHERE id = 901");
        } else {
          moved = 1;
        }
      }
      assertEquals("second", one(reader, "SELECT name FROM lr_pets WHERE id = 901"));
      assertEquals(1, update(reader, "UPDATE lr_pets SET name = 'third' WHERE id = 901"));
    }
  }

  @Test
  void moveOfTheOwner_leavesLookupsValid() throws Exception {
    try (Connection c = TestCluster.connect()) {
      update(c, "INSERT INTO lr_pets (id, name, owner_id) VALUES (902, 'mover', 120)");
      int from = shardOf(c, 120);
      int to = (from + 1) % TestCluster.SHARDS;
      new Mover(TestCluster.cluster(c).directory().store(), TestCluster.sandbox()::connectShard).move("default", "120", to);
      assertEquals(to, shardOf(c, 120));
      assertEquals("mover", one(c, "SELECT name FROM lr_pets WHERE id = 902"));
      assertEquals(List.of(Integer.toString(to)), route(c, "SELECT name FROM lr_pets WHERE id = 902"));
      assertEquals(1, update(c, "UPDATE lr_pets SET name = 'moved' WHERE id = 902"));
      assertFalse(TestCluster.onShard(to, "SELECT name FROM lr_pets WHERE id = 902").isEmpty());
    }
  }
}
