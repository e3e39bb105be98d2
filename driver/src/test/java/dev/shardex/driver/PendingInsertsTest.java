package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * INSERTs without their key held until an UPDATE gives it, as Hibernate's unidirectional
 * {@code @OneToMany @JoinColumn(name = "owner_id")} sends them: the child inserted without the key
 * (id by getGeneratedKeys), then {@code update pets set owner_id=? where id=?}, in one transaction.
 */
class PendingInsertsTest {
  private static final String INSERT_PET = "insert into pi_pets (birth_date,name,type_id) values (?,?,?)";
  private static final String SET_OWNER = "update pi_pets set owner_id=? where id=?";

  @BeforeAll
  static void tables() throws Exception {
    TestCluster.run(
        "CREATE TABLE pi_owners (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(30)) COMMENT='shardex:sharded key=id'",
        "CREATE TABLE pi_pets (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, birth_date DATE, name VARCHAR(30), type_id INT,"
            + " owner_id BIGINT) COMMENT='shardex:sharded key=owner_id'",
        "CREATE TABLE pi_visits (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, visit_date DATE, description VARCHAR(60),"
            + " pet_id BIGINT) COMMENT='shardex:sharded key=pet_id'");
  }

  private static long insertReturningId(Connection c, String sql, Object... values) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
      for (int i = 0; i < values.length; i++) {
        ps.setObject(i + 1, values[i]);
      }
      assertEquals(1, ps.executeUpdate());
      try (ResultSet keys = ps.getGeneratedKeys()) {
        assertTrue(keys.next(), "a generated key for " + sql);
        return keys.getLong(1);
      }
    }
  }

  private static long owner(Connection c, String name) throws SQLException {
    return insertReturningId(c, "insert into pi_owners (name) values (?)", name);
  }

  private static long pet(Connection c, String name) throws SQLException {
    return insertReturningId(c, INSERT_PET, java.sql.Date.valueOf("2020-01-02"), name, 3);
  }

  private static int update(Connection c, String sql, long key, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, key);
      ps.setLong(2, id);
      return ps.executeUpdate();
    }
  }

  private static int shardOf(Connection c, long key) throws SQLException {
    return TestCluster.cluster(c).directory().store().lookup("default", Long.toString(key)).shardId();
  }

  /** The shards holding the row {@code where}, with the row's columns as the shard has them. */
  private static List<String> rowsOnShards(String table, String columns, String where) throws SQLException {
    List<String> out = new ArrayList<>();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      for (String row : TestCluster.onShard(shard, "SELECT CONCAT_WS('|', " + columns + ") FROM " + table + " WHERE " + where)) {
        out.add(shard + ":" + row);
      }
    }
    return out;
  }

  @Test
  void hibernateStatements_rowLandsOnTheKeysShardWithEveryValue() throws Exception {
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long owner = owner(c, "George");
      long pet = pet(c, "Leo");
      assertEquals(1, update(c, SET_OWNER, owner, pet));
      c.commit();
      assertEquals(List.of(shardOf(c, owner) + ":2020-01-02|Leo|3|" + owner),
          rowsOnShards("pi_pets", "birth_date, name, type_id, owner_id", "id = " + pet));
    }
  }

  @Test
  void aHeldRowOfATableWithALookupOnItsId_isFoundChangedAndDeletedByThatIdAfterCommit() throws Exception {
    TestCluster.run("CREATE TABLE pi_tagged (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, birth_date DATE, name VARCHAR(30),"
        + " type_id INT, owner_id BIGINT) COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long owner = owner(c, "Harold");
      long pet = insertReturningId(c, "insert into pi_tagged (birth_date,name,type_id) values (?,?,?)",
          java.sql.Date.valueOf("2021-03-04"), "Iggy", 3);
      assertEquals(1, update(c, "update pi_tagged set owner_id=? where id=?", owner, pet));
      c.commit();
      c.setAutoCommit(true);
      // the held row got its lookup entry when it was written: statements by its id alone reach it
      try (Statement s = c.createStatement()) {
        assertEquals(1, s.executeUpdate("UPDATE pi_tagged SET name = 'Iguana' WHERE id = " + pet));
        assertEquals(List.of(shardOf(c, owner) + ":Iguana"), rowsOnShards("pi_tagged", "name", "id = " + pet));
        assertEquals(1, s.executeUpdate("DELETE FROM pi_tagged WHERE id = " + pet));
      }
      assertEquals(List.of(), rowsOnShards("pi_tagged", "name", "id = " + pet));
    }
  }

  @Test
  void aNullKeyIsHeldToo_andOtherSetValuesGoWithTheUpdate() throws Exception {
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long owner = owner(c, "Betty");
      long pet;
      try (PreparedStatement ps = c.prepareStatement("insert into pi_pets (name, owner_id) values (?, ?)",
          Statement.RETURN_GENERATED_KEYS)) {
        ps.setString(1, "Basil");
        ps.setNull(2, Types.BIGINT);
        assertEquals(1, ps.executeUpdate());
        ResultSet keys = ps.getGeneratedKeys();
        assertTrue(keys.next());
        pet = keys.getLong(1);
      }
      try (Statement s = c.createStatement()) {
        assertEquals(1, s.executeUpdate("update pi_pets set owner_id = " + owner + ", type_id = 7 where id = " + pet));
      }
      c.commit();
      assertEquals(List.of(shardOf(c, owner) + ":Basil|7|" + owner), rowsOnShards("pi_pets", "name, type_id, owner_id", "id = " + pet));
    }
  }

  @Test
  void rollback_discardsHeldRows() throws Exception {
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long pet = pet(c, "Rolled");
      c.rollback();
      long owner = owner(c, "After rollback");
      c.commit(); // nothing held any more
      assertEquals(List.of(), rowsOnShards("pi_pets", "name", "id = " + pet));
      assertEquals(1, rowsOnShards("pi_owners", "name", "id = " + owner).size());
    }
  }

  @Test
  void commitWithoutTheKey_isRefusedByName_andTheTransactionStaysOpen() throws Exception {
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long owner = owner(c, "Harold");
      long pet = pet(c, "Iggy");
      SQLException e = assertThrows(SQLException.class, c::commit);
      assertEquals("0AS00", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1305: commit refused: 1 row(s) inserted into pi_pets without their key"
          + " owner_id never got it (id " + pet + ")"), e.getMessage());
      assertThrows(SQLException.class, () -> c.setAutoCommit(true)); // which would commit
      assertEquals(1, update(c, SET_OWNER, owner, pet));
      c.commit();
      assertEquals(List.of(shardOf(c, owner) + ":Iggy"), rowsOnShards("pi_pets", "name", "id = " + pet));
    }
  }

  @Test
  void aReadOfTheTableWhileRowsAreHeld_isRefusedByName() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      long pet = pet(c, "Unseen");
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("select * from pi_pets where owner_id = 1"));
      assertTrue(e.getMessage().startsWith("Shardex SHX1212: SELECT of table pi_pets while rows inserted without their key"
          + " owner_id wait for it (id " + pet + ")"), e.getMessage());
      assertThrows(SQLException.class, () -> s.executeUpdate("update pi_pets set name = 'x' where id = " + pet));
      assertThrows(SQLException.class, c::setSavepoint);
      c.rollback();
      s.executeQuery("select * from pi_pets where owner_id = 1").close(); // nothing held any more
    }
  }

  @Test
  void inAutocommit_theRefusalNamesTheMappingToChange() throws Exception {
    try (Connection c = TestCluster.connect()) {
      SQLException e = assertThrows(SQLException.class, () -> pet(c, "Auto"));
      assertEquals("0AS00", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1202: INSERT into SHARDED table pi_pets does not set its key column owner_id"),
          e.getMessage());
      assertTrue(e.getMessage().contains("map the relation bidirectionally with @ManyToOne on the child, or @JoinColumn(nullable = false)"),
          e.getMessage());
    }
  }

  @Test
  void atMostAThousandRowsAreHeldPerConnection() throws Exception {
    try (Connection c = TestCluster.connect(); PreparedStatement ps = c.prepareStatement(INSERT_PET)) {
      c.setAutoCommit(false);
      ps.setDate(1, null);
      ps.setInt(3, 1);
      for (int i = 0; i < 1000; i++) {
        ps.setString(2, "p" + i);
        assertEquals(1, ps.executeUpdate());
      }
      SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
      assertTrue(e.getMessage().startsWith("Shardex SHX1213: INSERT into table pi_pets without its key owner_id: this connection"
          + " already holds 1000 rows"), e.getMessage());
      c.rollback();
      assertEquals(1, ps.executeUpdate()); // held again after the rollback
      c.rollback();
    }
  }

  @Test
  void severalHeldRowsForKeysOnDifferentShards_commitTogether() throws Exception {
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long[] owners = new long[6];
      long[] pets = new long[12];
      for (int o = 0; o < owners.length; o++) {
        owners[o] = owner(c, "owner " + o);
        pets[2 * o] = pet(c, "first of " + o);
        pets[2 * o + 1] = pet(c, "second of " + o);
      }
      for (int p = 0; p < pets.length; p++) {
        assertEquals(1, update(c, SET_OWNER, owners[p / 2], pets[p]));
      }
      c.commit();
      Set<Integer> shards = new HashSet<>();
      for (int p = 0; p < pets.length; p++) {
        int shard = shardOf(c, owners[p / 2]);
        shards.add(shard);
        assertEquals(List.of(shard + ":" + owners[p / 2]), rowsOnShards("pi_pets", "owner_id", "id = " + pets[p]));
      }
      assertTrue(shards.size() > 1, "the owners span shards: " + shards);
    }
  }

  @Test
  void batchedKeyUpdates_andBatchedInserts_inATransaction() throws Exception {
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long owner = owner(c, "Batch");
      long[] pets = {pet(c, "b1"), pet(c, "b2"), pet(c, "b3")};
      try (PreparedStatement ps = c.prepareStatement(SET_OWNER)) {
        for (long pet : pets) {
          ps.setLong(1, owner);
          ps.setLong(2, pet);
          ps.addBatch();
        }
        assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
      }
      try (PreparedStatement ps = c.prepareStatement(INSERT_PET)) {
        for (String name : List.of("held1", "held2")) {
          ps.setDate(1, null);
          ps.setString(2, name);
          ps.setInt(3, 2);
          ps.addBatch();
        }
        assertArrayEquals(new int[] {1, 1}, ps.executeBatch()); // held: they never get a key here
      }
      assertTrue(assertThrows(SQLException.class, c::commit).getMessage().contains("SHX1305: commit refused: 2 row(s)"));
      c.rollback();
      assertEquals(List.of(), rowsOnShards("pi_pets", "name", "owner_id = " + owner));
    }
  }

  @Test
  void visitsUnderPets_heldUntilTheirPetIdComes() throws Exception {
    try (Connection c = TestCluster.connect()) {
      c.setAutoCommit(false);
      long owner = owner(c, "Visitor");
      long pet = pet(c, "Rex");
      long visit = insertReturningId(c, "insert into pi_visits (description,visit_date) values (?,?)", "rabies shot",
          java.sql.Date.valueOf("2026-11-30"));
      assertEquals(1, update(c, SET_OWNER, owner, pet));
      assertEquals(1, update(c, "update pi_visits set pet_id=? where id=?", pet, visit));
      c.commit();
      assertEquals(List.of(shardOf(c, owner) + ":Rex"), rowsOnShards("pi_pets", "name", "id = " + pet));
      assertEquals(List.of(shardOf(c, pet) + ":rabies shot|" + pet), rowsOnShards("pi_visits", "description, pet_id", "id = " + visit));
    }
  }
}
