package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * HikariCP in front of Shardex (as Spring Boot puts it): no refusal and no stopped shard makes the pool
 * evict the logical connection. HikariCP marks an evicted connection's proxy closed at once
 * ({@code isClosed()}), so each error is checked right where it happens; the pool of one connection then
 * still hands out the same Shardex connection it made first.
 */
class PoolEvictionTest {
  static final String URL = "jdbc:shardex:sandbox:failover?shards=2&shardex.connectTimeoutMs=1000&shardex.transactions=single";

  @Test
  void refusalsAndAStoppedShardEvictNothing() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared("failover", 2);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(URL);
    config.setMaximumPoolSize(1);
    config.setPoolName("eviction-test");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      ShardexConnection first;
      long onZero;
      long onOne;
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        first = c.unwrap(ShardexConnection.class);
        s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS pe_users (user_id BIGINT PRIMARY KEY, name VARCHAR(20))");
        s.execute("/* shardex:sharded key=author_id */ CREATE TABLE IF NOT EXISTS pe_posts (id BIGINT, author_id BIGINT, title VARCHAR(20))");
        s.execute("DELETE FROM pe_users WHERE user_id IN (1, 2, 3, 4, 5, 6)");
        for (long u = 1; u <= 6; u++) {
          s.executeUpdate("INSERT INTO pe_users (user_id, name) VALUES (" + u + ", 'u" + u + "')");
        }
        var store = first.cluster().directory().store();
        long zero = -1;
        long one = -1;
        for (long u = 1; u <= 6; u++) {
          if (store.lookup(KeySpace.DEFAULT, Long.toString(u)).shardId() == 0) {
            zero = u;
          } else {
            one = u;
          }
        }
        assertTrue(zero > 0 && one > 0, "users on both shards");
        onZero = zero;
        onOne = one;

        Map<String, String> refusals = new LinkedHashMap<>();
        refusals.put("DELETE FROM pe_users WHERE name = 'x'", "SHX1201");
        refusals.put("INSERT INTO pe_users (name) VALUES ('x')", "SHX1202");
        refusals.put("UPDATE pe_users SET user_id = " + onOne + " WHERE user_id = " + onZero, "SHX1203");
        refusals.put("UPDATE pe_users SET user_id = 7 WHERE name = 'x'", "SHX1204");
        refusals.put("SELECT u.name FROM pe_users u JOIN pe_posts p ON p.id = u.user_id WHERE u.name = 'x' OR p.title = 'y'"
            + " FOR UPDATE", "SHX1206");
        refusals.put("SELECT name FROM pe_users ORDER BY name LIMIT 10 OFFSET 200000", "SHX1207");
        refusals.put("INSERT INTO pe_users (user_id, name) SELECT id, title FROM pe_posts ON DUPLICATE KEY UPDATE name = title",
            "SHX1208");
        refusals.put("SELECT * FROM pe_users WHERE user_id = (", "SHX1101");
        refusals.put("INSERT INTO pe_users (user_id, name) VALUES (NULL, 'x')", "SHX1001");
        for (Map.Entry<String, String> r : refusals.entrySet()) {
          SQLException e = assertThrows(SQLException.class, () -> s.execute(r.getKey()), r.getKey());
          assertEquals(r.getValue(), idOf(e), r.getKey() + " -> " + e.getMessage());
          assertEquals(ErrorKind.SHARDEX, ErrorKind.of(e), r.getKey());
          assertFalse(c.isClosed(), r.getValue() + " evicted the connection");
        }
        SQLException unsupported = assertThrows(SQLException.class,
            () -> c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE));
        assertEquals("SHX1209", idOf(unsupported));
        assertEquals("0AS00", unsupported.getSQLState());
        assertFalse(c.isClosed(), "SHX1209 evicted the connection");

        SQLException duplicate = assertThrows(SQLException.class,
            () -> s.executeUpdate("INSERT INTO pe_users (user_id, name) VALUES (" + onZero + ", 'again')"));
        assertEquals(ErrorKind.DATABASE, ErrorKind.of(duplicate), "MySQL's own error passes through");
        assertEquals("23000", duplicate.getSQLState());
        assertFalse(c.isClosed(), "a duplicate key evicted the connection");

        c.setAutoCommit(false);
        s.executeUpdate("UPDATE pe_users SET name = 'tx' WHERE user_id = " + onZero);
        SQLException second = assertThrows(SQLException.class,
            () -> s.executeUpdate("UPDATE pe_users SET name = 'tx' WHERE user_id = " + onOne));
        assertEquals("SHX1301", idOf(second));
        assertFalse(c.isClosed(), "SHX1301 evicted the connection");
        c.rollback();
        c.setAutoCommit(true);

        Statement closed = c.createStatement();
        closed.close();
        SQLException afterClose = assertThrows(SQLException.class, () -> closed.executeQuery("SELECT 1"));
        assertEquals("SHX1701", idOf(afterClose));
        assertFalse(c.isClosed(), "a closed statement evicted its connection");
      }

      var directory = first.cluster().directory();
      for (ShardStatus status : new ShardStatus[] {ShardStatus.READ_ONLY, ShardStatus.OFFLINE}) {
        directory.store().setShardStatus(1, status);
        directory.pollNow();
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE pe_users SET name = 'ro' WHERE user_id = " + onOne));
          assertEquals(status == ShardStatus.OFFLINE ? "SHX1402" : "SHX1403", idOf(e));
          assertFalse(c.isClosed(), status + " shard evicted the connection");
        } finally {
          directory.store().setShardStatus(1, ShardStatus.ONLINE);
          directory.pollNow();
        }
      }

      sandbox.stopShard(1);
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        for (String sql : new String[] {"SELECT name FROM pe_users WHERE user_id = " + onOne,
            "UPDATE pe_users SET name = 'down' WHERE user_id = " + onOne, "SELECT * FROM pe_users"}) {
          SQLException e = assertThrows(SQLException.class, () -> s.execute(sql), sql);
          assertEquals("SHX1401", idOf(e), sql + " -> " + e.getMessage());
          assertEquals("57S01", e.getSQLState());
          assertEquals(ErrorKind.UNREACHABLE, ErrorKind.of(e));
          assertNotNull(e.getCause(), "the shard's own exception is the cause");
          assertFalse(c.isClosed(), "a stopped shard evicted the connection: " + sql);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM pe_users WHERE user_id = ?")) {
          ps.setLong(1, onZero);
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next(), "shard 0 keeps working on the same logical connection");
          }
        }
      } finally {
        sandbox.startShard(1);
      }

      // shard 1's own pool may still be reconnecting: the last check reads shard 0 only
      try (Connection c = pool.getConnection(); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT name FROM pe_users WHERE user_id = " + onZero)) {
        assertSame(first, c.unwrap(ShardexConnection.class), "the pool still holds the connection it made first");
        assertTrue(rs.next());
        assertEquals("u" + onZero, rs.getString(1));
      }
      assertEquals(1, pool.getHikariPoolMXBean().getTotalConnections());
    }
  }

  private static String idOf(SQLException e) {
    ShardexError error = ShardexError.of(e);
    return error == null ? "not Shardex's: " + e.getSQLState() + " " + e.getMessage() : error.id();
  }
}
