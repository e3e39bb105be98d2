package dev.shardex.directory.move;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared "clitest" sandbox (3 shards) of the mover and CLI tests, reset to an empty directory
 * (shards 0..2, key space {@code default}) and empty shard databases by {@link #fresh()}.
 */
public final class TestCluster {
  private static HikariDataSource pool;

  private TestCluster() {}

  public static SandboxCluster sandbox() {
    return SandboxCluster.shared("clitest", 3);
  }

  public static synchronized HikariDataSource pool() {
    if (pool == null) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(sandbox().directoryUrl());
      config.setUsername(sandbox().user());
      config.setPassword(sandbox().password());
      config.setMaximumPoolSize(16);
      config.setPoolName("clitest-directory");
      pool = new HikariDataSource(config);
    }
    return pool;
  }

  public static ShardConnector connector() {
    return sandbox()::connectShard;
  }

  public static DirectoryStore fresh() throws SQLException {
    DirectoryStore store = new DirectoryStore(pool());
    store.init();
    directory("DELETE FROM shard_replicas", "DELETE FROM shards", "DELETE FROM keyspaces", "DELETE FROM logical_tables", "DELETE FROM key_map",
        "DELETE FROM clients", "DELETE FROM moves", "DELETE FROM sequence_columns", "DELETE FROM sequences",
        "DELETE FROM sequence_gaps", "DELETE FROM lookup_indexes", "DELETE FROM lookup_unique", "DELETE FROM lookup_multi");
    for (int shard = 0; shard < 3; shard++) {
      for (String table : tablesOn(shard)) {
        onShard(shard, "DROP TABLE `" + table + "`");
      }
      store.addShard(shard, sandbox().shardUrl(shard), 1.0);
    }
    store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
    return store;
  }

  public static void directory(String... sql) throws SQLException {
    try (Connection c = pool().getConnection(); Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  public static void onShard(int shard, String... sql) throws SQLException {
    try (Connection c = sandbox().connectShard(shard); Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  public static void onAllShards(String... sql) throws SQLException {
    for (int shard = 0; shard < 3; shard++) {
      onShard(shard, sql);
    }
  }

  /** Every row of a query on one shard, each row's columns joined with '|', in the query's order. */
  public static List<String> rows(int shard, String sql, Object... args) throws SQLException {
    try (Connection c = sandbox().connectShard(shard); PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        List<String> rows = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= n; i++) {
            row.append(i > 1 ? "|" : "").append(rs.getString(i));
          }
          rows.add(row.toString());
        }
        return rows;
      }
    }
  }

  public static long count(int shard, String sql, Object... args) throws SQLException {
    return Long.parseLong(rows(shard, sql, args).get(0));
  }

  private static List<String> tablesOn(int shard) throws SQLException {
    return rows(shard, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()");
  }
}
