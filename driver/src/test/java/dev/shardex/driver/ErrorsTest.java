package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What users see when things go wrong: SQLState, the table, the shard, the fix; never a password. */
class ErrorsTest {
  @BeforeAll
  static void schema() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS er_rows (user_id BIGINT, v INT)",
        "INSERT INTO er_rows (user_id, v) VALUES (40001, 1)");
  }

  @Test
  void aWriteWithoutTheKeyNamesTheTableTheKeyAndTheFix() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("DELETE FROM er_rows WHERE v = 1"));
      assertEquals("0AS00", e.getSQLState());
      assertEquals("Shardex SHX1201: DELETE on SHARDED table er_rows has no key: add user_id = ? or user_id IN (...) to its "
          + "WHERE clause, or set shardex.scatterWrites=allow to run it on every shard", e.getMessage());
      SQLException insert = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO er_rows (v) VALUES (3)"));
      assertEquals("Shardex SHX1202: INSERT into SHARDED table er_rows does not set its key column user_id: add user_id to the column list",
          insert.getMessage().substring(0, insert.getMessage().indexOf(". An ORM")));
      assertTrue(insert.getMessage().contains("@ManyToOne on the child, or @JoinColumn(nullable = false)"), insert.getMessage());
    }
    try (Connection c = TestCluster.connect("shardex.scatterWrites=allow&shardex.instance=scatter"); Statement s = c.createStatement()) {
      assertEquals(0, s.executeUpdate("UPDATE er_rows SET v = v WHERE v = 12345"), "runs on every shard when allowed");
    }
  }

  @Test
  void offlineAndReadOnlyShardsRefuseWithTheirStatus() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      var dir = TestCluster.cluster(c).directory();
      int shard = dir.store().lookup(KeySpace.DEFAULT, "40001").shardId();
      dir.store().setShardStatus(shard, ShardStatus.READ_ONLY);
      try {
        dir.pollNow();
        try (ResultSet rs = s.executeQuery("SELECT v FROM er_rows WHERE user_id = 40001")) {
          assertTrue(rs.next(), "reads go on from a READ_ONLY shard");
        }
        SQLException ro = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE er_rows SET v = 2 WHERE user_id = 40001"));
        assertEquals("25006", ro.getSQLState());
        assertEquals("Shardex SHX1403: shard " + shard + " is READ_ONLY: writes to it are refused until 'shardex shards set-status "
            + shard + " ONLINE'", ro.getMessage());
        dir.store().setShardStatus(shard, ShardStatus.OFFLINE);
        dir.pollNow();
        SQLException off = assertThrows(SQLException.class, () -> s.executeQuery("SELECT v FROM er_rows WHERE user_id = 40001"));
        assertEquals("57S02", off.getSQLState());
        assertTrue(off.getMessage().startsWith("Shardex SHX1402: shard " + shard + " is OFFLINE"), off.getMessage());
      } finally {
        dir.store().setShardStatus(shard, ShardStatus.ONLINE);
        dir.pollNow();
      }
      assertEquals(1, s.executeUpdate("UPDATE er_rows SET v = 2 WHERE user_id = 40001"));
    }
  }

  @Test
  void aWrongShardPasswordNeverAppearsInTheError() throws Exception {
    Properties p = new Properties();
    p.setProperty("shard.0.password", "Wr0ng-Secret-123");
    p.setProperty("shard.1.password", "Wr0ng-Secret-123");
    p.setProperty("shard.2.password", "Wr0ng-Secret-123");
    p.setProperty("shard.3.password", "Wr0ng-Secret-123");
    p.setProperty("shardex.connectTimeoutMs", "500");
    p.setProperty("shardex.instance", "badpass");
    try (Connection c = DriverManager.getConnection(TestCluster.URL, p); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT v FROM er_rows WHERE user_id = 40001"));
      assertEquals("57S02", e.getSQLState());
      for (Throwable t = e; t != null; t = t.getCause()) {
        assertFalse(String.valueOf(t.getMessage()).contains("Wr0ng-Secret-123"), "password leaked: " + t.getMessage());
      }
      assertTrue(e.getMessage().startsWith("Shardex SHX1410: shard ") && e.getMessage().contains("refused the connection"), e.getMessage());
    }
  }

  @Test
  void unparseableSqlAndBadOptionsAreClear() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM er_rows WHERE user_id = ("));
      assertEquals("42000", e.getSQLState());
      assertTrue(e.getMessage().startsWith("Shardex SHX1101: cannot parse the statement"), e.getMessage());
    }
    SQLException bad = assertThrows(SQLException.class, () -> DriverManager.getConnection(TestCluster.URL + "&shardex.scatterWrites=maybe"));
    assertEquals("Shardex SHX1501: option shardex.scatterWrites has the invalid value 'maybe': expected one of deny, allow",
        bad.getMessage());
    assertNull(new ShardexDriver().connect("jdbc:mysql://localhost/x", new Properties()), "not our URL");
  }

  @Test
  void aClosedConnectionSaysSo() throws Exception {
    Connection c = TestCluster.connect();
    Statement s = c.createStatement();
    c.close();
    SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1"));
    assertEquals("08003", e.getSQLState());
  }
}
