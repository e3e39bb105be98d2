package dev.shardex.driver.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * Regression (issue 22): two clusters of one instance, opened with different credentials, got the
 * same pool names, so HikariCP refused the second one's JMX registration. Each now registers its own.
 */
class TwoClustersTest {
  private static final String OTHER = "obs_second";
  private static final String OTHER_PASSWORD = "second-Pw-22";

  @Test
  void clustersWithOtherCredentialsRegisterTheirOwnPoolsAndBeans() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS obs_two (user_id BIGINT PRIMARY KEY, v INT)",
        "REPLACE INTO obs_two (user_id, v) VALUES (1, 1), (2, 2), (3, 3), (4, 4)");
    var sandbox = TestCluster.sandbox();
    List<Connection> servers = new ArrayList<>();
    servers.add(sandbox.connectDirectory());
    for (int i = 0; i < TestCluster.SHARDS; i++) {
      servers.add(sandbox.connectShard(i));
    }
    for (Connection server : servers) {
      try (Connection c = server; Statement s = c.createStatement()) {
        for (String host : new String[] {"%", "localhost"}) {
          s.execute("CREATE USER IF NOT EXISTS '" + OTHER + "'@'" + host + "' IDENTIFIED BY '" + OTHER_PASSWORD + "'");
          s.execute("GRANT ALL PRIVILEGES ON `" + c.getCatalog() + "`.* TO '" + OTHER + "'@'" + host + "'");
        }
      }
    }
    String url = "jdbc:shardex:" + sandbox.directoryUrl().substring("jdbc:".length()) + "?shardex.instance=obstwo";
    try (Connection first = DriverManager.getConnection(url, sandbox.user(), sandbox.password());
        Connection second = DriverManager.getConnection(url, OTHER, OTHER_PASSWORD)) {
      assertNotEquals(TestCluster.cluster(first), TestCluster.cluster(second), "other credentials, other cluster");
      for (Connection c : List.of(first, second)) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM obs_two")) {
          assertTrue(rs.next());
          assertEquals(4, rs.getInt(1));
        }
      }
      var server = ManagementFactory.getPlatformMBeanServer();
      for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
        String a = TestCluster.cluster(first).pools().poolName(shard);
        String b = TestCluster.cluster(second).pools().poolName(shard);
        assertNotEquals(a, b);
        for (String pool : List.of(a, b)) {
          assertTrue(server.isRegistered(new ObjectName("com.zaxxer.hikari:type=Pool (" + pool + ")")), pool);
        }
      }
      assertEquals(2, server.queryNames(new ObjectName("dev.shardex:type=Cluster,instance=obstwo,*"), null).size());
    }
  }
}
