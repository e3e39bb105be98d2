package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.Directory;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A key-equality statement's binding to the catalog (its table, key column and key space, kept
 * with its template) is never used once the declaration changed: not after DDL through this
 * driver, not after another client re-declared the table (the change log).
 */
class RouteBindingTest {

  private static List<Integer> shardsHolding(String table, String where) throws SQLException {
    List<Integer> found = new java.util.ArrayList<>();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      if (!DeclarationTest.tablesOn(shard, table).isEmpty() && TestCluster.countOnShard(shard, table, where) > 0) {
        found.add(shard);
      }
    }
    return found;
  }

  @Test
  void aPreparedInsertFollowsItsTableFromShardedToSingleAfterDdl() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS rb_docs");
      s.execute("/* shardex:sharded key=owner_id */ CREATE TABLE rb_docs (id BIGINT PRIMARY KEY, owner_id BIGINT)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO rb_docs (id, owner_id) VALUES (?, ?)");
          PreparedStatement select = c.prepareStatement("SELECT id FROM rb_docs WHERE owner_id = ?")) {
        insert.setLong(1, 1);
        insert.setLong(2, 40001);
        assertEquals(1, insert.executeUpdate());
        int keyShard = TestCluster.cluster(c).directory().routeRead(KeySpace.DEFAULT, 40001L).shardId();
        assertEquals(List.of(keyShard), shardsHolding("rb_docs", "owner_id = 40001"));

        s.execute("DROP TABLE rb_docs");
        int single = (keyShard + 1) % TestCluster.SHARDS;
        s.execute("/* shardex:single shard=" + single + " */ CREATE TABLE rb_docs (id BIGINT PRIMARY KEY, owner_id BIGINT)");
        insert.setLong(1, 2);
        insert.setLong(2, 40001);
        assertEquals(1, insert.executeUpdate(), "routed by the new declaration: the key's shard has no rb_docs now");
        assertEquals(List.of(single), shardsHolding("rb_docs", "owner_id = 40001"));
        select.setLong(1, 40001);
        try (ResultSet rs = select.executeQuery()) {
          assertTrue(rs.next());
          assertEquals(2, rs.getLong(1));
        }
      } finally {
        s.execute("DROP TABLE IF EXISTS rb_docs");
      }
    }
  }

  @Test
  void aPreparedUpdateSeesAKeyColumnAnotherClientRedeclared() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS rb_notes");
      s.execute("/* shardex:sharded key=owner_id */ CREATE TABLE rb_notes (id BIGINT PRIMARY KEY, owner_id BIGINT, n INT)");
      Directory dir = TestCluster.cluster(c).directory();
      try (PreparedStatement update = c.prepareStatement("UPDATE rb_notes SET n = n + 1 WHERE owner_id = ?")) {
        s.executeUpdate("INSERT INTO rb_notes (id, owner_id, n) VALUES (7, 40002, 0)");
        update.setLong(1, 40002);
        assertEquals(1, update.executeUpdate(), "routed by its key");

        // another client re-declares the table keyed on id: this driver hears of it through the change log
        dir.store().declareTable(TableDef.sharded("rb_notes", KeySpace.DEFAULT, "id"));
        dir.pollNow();
        SQLException e = assertThrows(SQLException.class, update::executeUpdate);
        assertTrue(ShardexError.NO_KEY_WRITE.is(e), e.getMessage());
      } finally {
        dir.store().declareTable(TableDef.sharded("rb_notes", KeySpace.DEFAULT, "owner_id"));
        dir.pollNow();
        s.execute("DROP TABLE IF EXISTS rb_notes");
      }
    }
  }
}
