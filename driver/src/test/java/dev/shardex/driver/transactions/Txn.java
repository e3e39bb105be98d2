package dev.shardex.driver.transactions;

import dev.shardex.driver.TestCluster;
import dev.shardex.driver.execute.AtomicCommit;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Helpers of the transaction tests: users on every shard, killing connections, prepared branches. */
final class Txn {
  private Txn() {}

  /** One user per shard of the test cluster, each with a seed row in {@code table}. */
  static long[] usersOnEveryShard(String table) throws SQLException {
    long[] users = new long[TestCluster.SHARDS];
    int found = 0;
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      for (long u = 910_001; found < users.length && u < 910_200; u++) {
        s.executeUpdate("INSERT INTO " + table + " (user_id, note) VALUES (" + u + ", 'seed')");
        int shard = TestCluster.cluster(c).directory().store().lookup(KeySpace.DEFAULT, Long.toString(u)).shardId();
        if (users[shard] == 0) {
          users[shard] = u;
          found++;
        }
      }
    }
    if (found < users.length) {
      throw new IllegalStateException("no user on every shard");
    }
    return users;
  }

  /** Kills a shard connection from the server side (as if its process died) and waits until it is gone. */
  static void kill(int shard, Connection victim) {
    try (Connection admin = TestCluster.sandbox().connectShard(shard); Statement s = admin.createStatement()) {
      long id = AtomicCommit.connectionId(victim);
      s.execute("KILL CONNECTION " + id);
      for (int i = 0; i < 500; i++) {
        try (PreparedStatement ps = admin.prepareStatement("SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?")) {
          ps.setLong(1, id);
          try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
              return;
            }
          }
        }
        Thread.sleep(10);
      }
    } catch (SQLException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The directory change a driver instance has acknowledged (clients.applied_change). */
  static long appliedChange(String clientId) throws SQLException {
    try (Connection c = TestCluster.sandbox().connectDirectory();
        PreparedStatement ps = c.prepareStatement("SELECT applied_change FROM clients WHERE id = ?")) {
      ps.setString(1, clientId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Shardex branches (atomic or xa) still prepared on any shard. */
  static int preparedBranches() throws SQLException {
    int n = 0;
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      try (Connection c = TestCluster.sandbox().connectShard(shard); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("XA RECOVER")) {
        while (rs.next()) {
          String data = rs.getString("data");
          n += data.startsWith("sha-") || data.startsWith("shx-") ? 1 : 0;
        }
      }
    }
    return n;
  }
}
