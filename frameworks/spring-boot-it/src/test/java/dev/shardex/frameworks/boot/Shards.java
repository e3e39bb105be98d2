package dev.shardex.frameworks.boot;

import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** What a user checks behind the application's back: each shard's own rows, and the directory's owner of a key. */
final class Shards {
  static final int COUNT = 4;
  private static final SandboxCluster SANDBOX = SandboxCluster.shared("boot", COUNT);

  private Shards() {}

  /** The shard the directory places a user on. */
  static int owner(DataSource dataSource, long userId) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      Placement p = c.unwrap(ShardexConnection.class).cluster().directory().store()
          .lookup(KeySpace.DEFAULT, Long.toString(userId));
      if (p == null) {
        throw new AssertionError("user " + userId + " has no placement in the directory: no SHARDED table received its key"
            + " (did schema.sql's COMMENT='shardex:sharded key=user_id' declare the tables?)");
      }
      return p.shardId();
    }
  }

  /** Runs a query straight on one shard (no Shardex) and returns the first column of each row. */
  static List<String> query(int shard, String sql) throws SQLException {
    try (Connection c = SANDBOX.connectShard(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  /** Rows of a table on every shard, added up. */
  static long total(String table) throws SQLException {
    long n = 0;
    for (int shard = 0; shard < COUNT; shard++) {
      n += Long.parseLong(query(shard, "SELECT COUNT(*) FROM " + table).get(0));
    }
    return n;
  }
}
