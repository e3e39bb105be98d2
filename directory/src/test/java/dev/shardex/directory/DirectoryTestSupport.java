package dev.shardex.directory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The directory database of the shared "dirtest" sandbox, behind one HikariCP pool per test JVM.
 * {@link #freshStore()} empties it so each test starts from an empty catalog (the change counter
 * keeps counting: its ids only need to grow).
 */
public final class DirectoryTestSupport {
  private static HikariDataSource pool;

  private DirectoryTestSupport() {}

  public static SandboxCluster sandbox() {
    return SandboxCluster.shared("dirtest", 2);
  }

  static synchronized HikariDataSource pool() {
    if (pool == null) {
      SandboxCluster cluster = sandbox();
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(cluster.directoryUrl());
      config.setUsername(cluster.user());
      config.setPassword(cluster.password());
      config.addDataSourceProperty("sslMode", "DISABLED");
      config.addDataSourceProperty("allowPublicKeyRetrieval", "true");
      config.setMaximumPoolSize(12);
      config.setPoolName("dirtest");
      pool = new HikariDataSource(config);
    }
    return pool;
  }

  /** A store over the directory database, initialised and emptied. */
  public static DirectoryStore freshStore() throws SQLException {
    DirectoryStore store = new DirectoryStore(pool());
    store.init();
    try (Connection c = pool().getConnection(); Statement s = c.createStatement()) {
      for (String table : new String[] {"shard_replicas", "shards", "keyspaces", "logical_tables", "key_map", "changes", "clients", "moves"}) {
        s.executeUpdate("DELETE FROM " + table);
      }
    }
    return store;
  }

  /** Runs one update straight on the directory database (bypassing the store and its change log). */
  static int update(String sql, Object... args) throws SQLException {
    try (Connection c = pool().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      return ps.executeUpdate();
    }
  }

  /** The first column of the first row of a query on the directory database, or null without rows. */
  public static String scalar(String sql, Object... args) throws SQLException {
    try (Connection c = pool().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  static long keyCount(DirectoryStore store, int shardId) throws SQLException {
    return store.shards().stream().filter(s -> s.id() == shardId).findFirst()
        .orElseThrow(() -> new AssertionError("no shard " + shardId)).keyCount();
  }
}
