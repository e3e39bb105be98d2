package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.KeySpace;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every failure to get a connection is an SHX error naming what is down and what to do. */
class FailureNamingTest {
  @BeforeAll
  static void rows() throws SQLException {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS fn_t (user_id BIGINT, v INT)",
        "DELETE FROM fn_t WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8)",
        "INSERT INTO fn_t (user_id, v) VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)");
  }

  private static long keyOn(Connection c, int shard) throws SQLException {
    var store = TestCluster.cluster(c).directory().store();
    for (long u = 1; u <= 8; u++) {
      if (store.lookup(KeySpace.DEFAULT, Long.toString(u)).shardId() == shard) {
        return u;
      }
    }
    throw new AssertionError("no key on shard " + shard);
  }

  @Test
  void poolExhaustionNamesTheShardAndThePoolSize() throws SQLException {
    try (Connection c = TestCluster.connect("shardex.poolSize=1&shardex.connectTimeoutMs=300&shardex.instance=pool-full");
        Statement holder = c.createStatement(); Statement s = c.createStatement()) {
      long key = keyOn(c, 2);
      try (ResultSet held = holder.executeQuery("SELECT v FROM fn_t WHERE user_id = " + key)) {
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT v FROM fn_t WHERE user_id = " + key));
        assertTrue(e.getMessage().startsWith("Shardex SHX1412: shard 2 ("), e.getMessage());
        assertTrue(e.getMessage().contains("shardex.poolSize"), e.getMessage());
        assertEquals("HYT00", e.getSQLState());
        held.next();
      }
      try (ResultSet rs = s.executeQuery("SELECT v FROM fn_t WHERE user_id = " + key)) {
        assertTrue(rs.next(), "the connection came free once the result set closed");
      }
    }
  }

  @Test
  void aShardRefusingTheLoginIsNamed() throws SQLException {
    try (Connection c = TestCluster.connect("shard.1.password=not-the-password&shardex.instance=refused&shardex.connectTimeoutMs=1000");
        Statement s = c.createStatement()) {
      long onOne = keyOn(c, 1);
      long onZero = keyOn(c, 0);
      SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT v FROM fn_t WHERE user_id = " + onOne));
      assertTrue(e.getMessage().startsWith("Shardex SHX1410: shard 1 ("), e.getMessage());
      assertTrue(e.getMessage().contains("Access denied"), e.getMessage());
      assertTrue(e.getMessage().contains("shard.1.password"), e.getMessage());
      assertFalse(e.getMessage().contains("not-the-password"), e.getMessage());
      assertEquals("57S02", e.getSQLState());
      try (ResultSet rs = s.executeQuery("SELECT v FROM fn_t WHERE user_id = " + onZero)) {
        assertTrue(rs.next(), "the other shards keep working");
      }
    }
  }

  @Test
  void placingANewKeyWhileTheDirectoryIsDownIsNamed() throws Exception {
    var sandbox = TestCluster.sandbox();
    TestCluster.connect().close();
    int port = URI.create(sandbox.directoryUrl().substring(5)).getPort();
    // left running once restored: the driver instance it served polls the directory through it until the JVM exits
    TcpProxy proxy = new TcpProxy(port);
    try {
      String url = "jdbc:shardex:mysql://127.0.0.1:" + proxy.port() + "/shardex_directory?user=" + sandbox.user()
          + "&password=" + sandbox.password() + "&shardex.leaseMs=4000&shardex.instance=directory-down";
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.executeUpdate("INSERT INTO fn_t (user_id, v) VALUES (1, 10)");
        long fresh = 1_000_000 + System.nanoTime() % 1_000_000;
        proxy.cut();
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM fn_t WHERE user_id = 1")) {
          assertTrue(rs.next(), "cached keys keep reading");
        }
        SQLException e = assertThrows(SQLException.class,
            () -> s.executeUpdate("INSERT INTO fn_t (user_id, v) VALUES (" + fresh + ", 1)"));
        assertTrue(e.getMessage().startsWith("Shardex SHX1406: the directory jdbc:mysql://127.0.0.1:" + proxy.port()),
            e.getMessage());
        assertTrue(e.getMessage().contains("new keys"), e.getMessage());
        assertFalse(e.getMessage().contains(sandbox.password()), e.getMessage());
        assertEquals("57S01", e.getSQLState());
      }
    } finally {
      proxy.restore();
    }
  }
}
