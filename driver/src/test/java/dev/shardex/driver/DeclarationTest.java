package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.Directory;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableKind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** In-band declarations on CREATE TABLE, DDL fan-out, GLOBAL and SINGLE tables, on real shards. */
class DeclarationTest {
  static List<String> tablesOn(int shard, String like) throws SQLException {
    return TestCluster.onShard(shard, "SHOW TABLES LIKE '" + like + "'");
  }

  @Test
  void shardedGlobalAndSingleDeclarationsCreateTablesWhereTheyLive() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      Directory dir = TestCluster.cluster(c).directory();
      s.execute("/* shardex:sharded key=owner_id */ CREATE TABLE dc_docs (id BIGINT PRIMARY KEY, owner_id BIGINT)");
      s.execute("/* shardex:global */ CREATE TABLE dc_countries (code CHAR(2) PRIMARY KEY, name VARCHAR(40))");
      s.execute("/* shardex:single shard=2 */ CREATE TABLE dc_jobs (id INT PRIMARY KEY)");
      s.execute("CREATE TABLE dc_plain (id INT PRIMARY KEY)");
      assertEquals(TableKind.SHARDED, dir.table("dc_docs").kind());
      assertEquals("owner_id", dir.table("dc_docs").keyColumn());
      assertEquals(TableKind.GLOBAL, dir.table("dc_countries").kind());
      assertEquals(2, dir.table("dc_jobs").homeShard());
      assertEquals(TableKind.SINGLE, dir.table("dc_plain").kind());
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        assertEquals(List.of("dc_docs"), tablesOn(shard, "dc_docs"));
        assertEquals(List.of("dc_countries"), tablesOn(shard, "dc_countries"));
        assertEquals(shard == 2 ? List.of("dc_jobs") : List.of(), tablesOn(shard, "dc_jobs"));
        assertEquals(shard == 0 ? List.of("dc_plain") : List.of(), tablesOn(shard, "dc_plain"));
      }

      assertEquals(1, s.executeUpdate("INSERT INTO dc_countries (code, name) VALUES ('be', 'Belgium')"));
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        assertEquals(List.of("Belgium"), TestCluster.onShard(shard, "SELECT name FROM dc_countries WHERE code = 'be'"));
      }
      s.executeUpdate("INSERT INTO dc_docs (id, owner_id) VALUES (1, 30001)");
      try (ResultSet rs = s.executeQuery("SELECT c.name FROM dc_docs d JOIN dc_countries c ON c.code = 'be' WHERE d.owner_id = 30001")) {
        assertTrue(rs.next());
        assertEquals("Belgium", rs.getString(1));
      }
      s.executeUpdate("INSERT INTO dc_jobs (id) VALUES (5)");
      assertEquals(List.of("5"), TestCluster.onShard(2, "SELECT id FROM dc_jobs"));

      s.execute("ALTER TABLE dc_docs ADD COLUMN title VARCHAR(20)");
      java.util.List<String> report = new java.util.ArrayList<>();
      for (java.sql.SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
        report.add(w.getMessage());
      }
      assertEquals(java.util.List.of("Shardex: shard 0: applied", "Shardex: shard 1: applied", "Shardex: shard 2: applied",
          "Shardex: shard 3: applied"), report, "per-shard DDL report");
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        assertEquals(List.of("title"), TestCluster.onShard(shard,
            "SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'dc_docs' AND column_name = 'title'"));
      }
      s.execute("DROP TABLE dc_docs");
      assertNull(dir.table("dc_docs"), "dropping forgets the declaration");
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        assertEquals(List.of(), tablesOn(shard, "dc_docs"));
      }
    }
  }

  @Test
  void ddlThatFailsOnSomeShardsNamesThoseThatAppliedAndThoseThatDidNot() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("/* shardex:global */ CREATE TABLE dc_partial (id INT PRIMARY KEY)");
      try (Connection direct = TestCluster.sandbox().connectShard(3); Statement d = direct.createStatement()) {
        d.execute("ALTER TABLE dc_partial ADD COLUMN extra INT");
      }
      SQLException e = assertThrows(SQLException.class, () -> s.execute("ALTER TABLE dc_partial ADD COLUMN extra INT"));
      assertTrue(ShardexError.DDL_PARTIAL.is(e), e.getMessage());
      assertTrue(e.getMessage().contains("applied on shards 0, 1, 2 but failed on shards 3"), e.getMessage());
      assertTrue(e.getMessage().contains("Duplicate column name 'extra'"), e.getMessage());
    }
  }

  @Test
  void badDeclarationsAreRefusedWithTheirReason() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException noKey = assertThrows(SQLException.class, () -> s.execute("/* shardex:sharded */ CREATE TABLE dc_bad (id INT)"));
      assertEquals("Shardex SHX1103: bad declaration /* shardex:sharded */: a SHARDED table needs key=COLUMN", noKey.getMessage());
      SQLException noSpace = assertThrows(SQLException.class,
          () -> s.execute("/* shardex:sharded key=id keyspace=nope */ CREATE TABLE dc_bad (id INT)"));
      assertEquals("Shardex SHX1504: key space 'nope' is not in the directory; add it with 'shardex keyspaces add nope'",
          noSpace.getMessage());
      assertEquals(List.of(), tablesOn(0, "dc_bad"), "nothing created");
    }
  }
}
