package dev.shardex.frameworks;

import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * One named 4-shard sandbox, and what the framework tests check behind the framework's back: which
 * shard Shardex routes a statement to (EXPLAIN ROUTE) and what each shard really holds (a direct
 * connection to the shard, no Shardex in between).
 */
public final class Sandbox {
  public static final int SHARDS = 4;

  private final String name;

  public Sandbox(String name) {
    this.name = name;
  }

  /** The only thing a framework's configuration changes: its JDBC URL. */
  public String url() {
    return "jdbc:shardex:sandbox:" + name + "?shards=" + SHARDS;
  }

  public SandboxCluster cluster() {
    return SandboxCluster.shared(name, SHARDS);
  }

  /** The shards Shardex sends {@code sql} to, as EXPLAIN ROUTE lists them. */
  public List<Integer> route(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
      List<Integer> shards = new ArrayList<>();
      while (rs.next()) {
        shards.add(rs.getInt(1));
      }
      return shards;
    }
  }

  /** The one shard that owns {@code userId} in the table's key space. */
  public int shardOf(String table, long userId) throws SQLException {
    List<Integer> shards = route("SELECT * FROM " + table + " WHERE user_id = " + userId);
    if (shards.size() != 1) {
      throw new AssertionError("user " + userId + " routes to " + shards + ", expected one shard");
    }
    return shards.get(0);
  }

  /** The first column of the first row of {@code sql} run directly on one shard, as a long. */
  public long onShard(int shard, String sql, Object... params) throws SQLException {
    try (Connection c = cluster().connectShard(shard); PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** {@link #onShard} on every shard, in shard order. */
  public long[] onEachShard(String sql, Object... params) throws SQLException {
    long[] out = new long[SHARDS];
    for (int shard = 0; shard < SHARDS; shard++) {
      out[shard] = onShard(shard, sql, params);
    }
    return out;
  }

  /** Whether the table exists on the shard (information_schema of the shard's own database). */
  public boolean tableOnShard(int shard, String table) throws SQLException {
    return onShard(shard, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?", table) == 1;
  }

  /**
   * Asserts that each user's rows sit on its own shard only: {@code perUser} rows on the shard
   * EXPLAIN ROUTE names, none anywhere else. Returns how many distinct shards the users spread over.
   */
  public int assertRowsOnOwnShards(String table, long[] userIds, long perUser) throws SQLException {
    boolean[] used = new boolean[SHARDS];
    for (long user : userIds) {
      int owner = shardOf(table, user);
      used[owner] = true;
      long[] counts = onEachShard("SELECT COUNT(*) FROM " + table + " WHERE user_id = ?", user);
      for (int shard = 0; shard < SHARDS; shard++) {
        long expected = shard == owner ? perUser : 0;
        if (counts[shard] != expected) {
          throw new AssertionError("user " + user + " of " + table + ": shard " + shard + " holds " + counts[shard]
              + " rows, expected " + expected + " (owner: shard " + owner + ")");
        }
      }
    }
    int spread = 0;
    for (boolean u : used) {
      spread += u ? 1 : 0;
    }
    return spread;
  }
}
