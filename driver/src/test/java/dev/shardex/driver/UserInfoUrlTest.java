package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.cluster.ShardexConfig;
import dev.shardex.vocabulary.KeySpace;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code jdbc:shardex:mysql://user:password@host/db} gives the shards the same credentials as
 * {@code ?user=&password=}: a user that exists only with a password, on the directory and every
 * shard, writes and reads rows through such a URL, and each shard ran the writes as that user
 * (CURRENT_USER() in the row). Its password needs percent-encoding.
 */
class UserInfoUrlTest {
  private static final String USER = "ui_writer";
  private static final String PASSWORD = "Ui@Pass:w/rd%&;x+1";
  private static final long FIRST = 88_001;
  private static final long NEW = 88_101;
  private static String hostAndDb;

  @BeforeAll
  static void userOnEveryServer() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS ui_rows (user_id BIGINT PRIMARY KEY, v INT,"
            + " who VARCHAR(200))",
        "DELETE FROM ui_rows WHERE user_id IN (" + String.join(", ", java.util.stream.LongStream.range(NEW, NEW + 16)
            .mapToObj(Long::toString).toList()) + ")",
        "REPLACE INTO ui_rows (user_id, v) VALUES (88001, 1), (88002, 1), (88003, 1), (88004, 1), (88005, 1), (88006, 1),"
            + " (88007, 1), (88008, 1), (88009, 1), (88010, 1), (88011, 1), (88012, 1)");
    var sandbox = TestCluster.sandbox();
    hostAndDb = sandbox.directoryUrl().substring("jdbc:mysql://".length());
    List<Connection> servers = new ArrayList<>();
    servers.add(sandbox.connectDirectory());
    for (int i = 0; i < TestCluster.SHARDS; i++) {
      servers.add(sandbox.connectShard(i));
    }
    for (Connection c : servers) {
      try (c; Statement s = c.createStatement()) {
        for (String host : new String[] {"%", "localhost", "127.0.0.1"}) {
          s.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'" + host + "' IDENTIFIED BY '" + PASSWORD + "'");
          s.execute("GRANT ALL ON `" + c.getCatalog() + "`.* TO '" + USER + "'@'" + host + "'");
        }
      }
    }
  }

  private static String url(String options) {
    return "jdbc:shardex:mysql://" + USER + ":" + URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8) + "@" + hostAndDb + "?shardex.instance=userinfo" + options;
  }

  @Test
  void userPasswordAtUrl_writesAndReadsOnEveryShard() throws Exception {
    try (Connection c = DriverManager.getConnection(url("")); Statement s = c.createStatement()) {
      for (long u = NEW; u < NEW + 16; u++) {
        assertEquals(1, s.executeUpdate("INSERT INTO ui_rows (user_id, v, who) VALUES (" + u + ", 1, CURRENT_USER())"));
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ui_rows WHERE user_id BETWEEN 88101 AND 88116")) {
        rs.next();
        assertEquals(16, rs.getInt(1), "read from every shard");
      }
      assertEquals(1, s.executeUpdate("UPDATE ui_rows SET v = 2 WHERE user_id = " + NEW));
    }
    java.util.Set<Integer> shards = new java.util.TreeSet<>();
    long onShards = 0;
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      for (String who : TestCluster.onShard(shard, "SELECT who FROM ui_rows WHERE user_id BETWEEN 88101 AND 88116")) {
        assertTrue(who.startsWith(USER + "@"), "shard " + shard + " ran the INSERT as " + who);
        shards.add(shard);
        onShards++;
      }
    }
    assertEquals(16, onShards, "the rows are on the shards");
    assertTrue(shards.size() > 1, "written on several shards: " + shards);
  }

  @Test
  void aShardsOwnPasswordStillOverridesTheUrls() throws Exception {
    try (Connection c = DriverManager.getConnection(url("&shard.0.password=WRONG&shardex.connectTimeoutMs=500"));
        Statement s = c.createStatement()) {
      for (long u = FIRST; u < FIRST + 12; u++) {
        int shard = TestCluster.cluster(c).directory().routeRead(KeySpace.DEFAULT, u).shardId();
        String read = "SELECT v FROM ui_rows WHERE user_id = " + u;
        if (shard == 0) {
          assertThrows(SQLException.class, () -> s.executeQuery(read).close(), "shard 0 gets shard.0.password");
        } else {
          try (ResultSet rs = s.executeQuery(read)) {
            assertTrue(rs.next(), "other shards get the URL's password");
          }
        }
      }
    }
  }

  @Test
  void userInfo_percentDecodedAsConnectorJ_winsOverOptions_notKeptInTheUrl() throws Exception {
    Properties info = new Properties();
    info.setProperty("password", "from-properties");
    ShardexConfig c = ShardexConfig.parse("jdbc:shardex:mysql://u%40x:p%3Aa+b%2B@h:3306/db?user=other&shard.2.user=s2", info);
    assertEquals("u@x", c.user(0));
    assertEquals("p:a b+", c.password(0));
    assertEquals("s2", c.user(2));
    assertEquals("jdbc:mysql://h:3306/db", c.directoryUrl());
    assertFalse(c.toString().contains("p:a") || c.clusterKey().contains("p:a") || c.clusterKey().contains("p%3A"));
  }
}
