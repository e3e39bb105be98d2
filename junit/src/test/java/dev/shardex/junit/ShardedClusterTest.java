package dev.shardex.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The extension as a user puts it on an integration test: the default (sandbox) backend. */
@ShardedCluster(shards = 2, name = "junit-extension")
class ShardedClusterTest {

  @Test
  void eachUsersRowsLandOnOneShardAndReadBackThroughShardex(ShardexCluster cluster, Connection c) throws SQLException {
    assertEquals(2, cluster.shardCount());
    assertTrue(cluster.url().startsWith("jdbc:shardex:sandbox:junit-extension"), cluster.url());
    try (Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS notes "
          + "(user_id BIGINT NOT NULL, note_id INT NOT NULL, body VARCHAR(100), PRIMARY KEY (user_id, note_id))");
    }
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO notes (user_id, note_id, body) VALUES (?, ?, ?)")) {
      for (long user = 1; user <= 4; user++) {
        for (int note = 1; note <= 3; note++) {
          insert.setLong(1, user);
          insert.setInt(2, note);
          insert.setString(3, "note " + note + " of " + user);
          insert.executeUpdate();
        }
      }
    }
    int shardsWithRows = 0;
    for (long user = 1; user <= 4; user++) {
      int owners = 0;
      for (int shard = 0; shard < cluster.shardCount(); shard++) {
        long rows = count(cluster.connectShard(shard), user);
        assertTrue(rows == 0 || rows == 3, "user " + user + " has " + rows + " rows on shard " + shard);
        owners += rows == 3 ? 1 : 0;
      }
      assertEquals(1, owners, "user " + user + " lives on exactly one shard");
    }
    for (int shard = 0; shard < cluster.shardCount(); shard++) {
      try (Connection direct = cluster.connectShard(shard); Statement s = direct.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM notes")) {
        rs.next();
        shardsWithRows += rs.getLong(1) > 0 ? 1 : 0;
      }
    }
    assertEquals(2, shardsWithRows, "new users are spread over both shards");
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM notes WHERE user_id IN (1, 2, 3, 4)")) {
      rs.next();
      assertEquals(12, rs.getLong(1));
    }
  }

  private static long count(Connection shard, long user) throws SQLException {
    try (shard; PreparedStatement ps = shard.prepareStatement("SELECT COUNT(*) FROM notes WHERE user_id = ?")) {
      ps.setLong(1, user);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
