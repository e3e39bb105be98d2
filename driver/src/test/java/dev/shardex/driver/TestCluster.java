package dev.shardex.driver;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** The 4-shard sandbox the driver's integration tests share (one per test JVM), and helpers. */
public final class TestCluster {
  public static final String NAME = "drivertest";
  public static final int SHARDS = 4;
  public static final String URL = "jdbc:shardex:sandbox:" + NAME + "?shards=" + SHARDS;

  private TestCluster() {}

  public static SandboxCluster sandbox() {
    return SandboxCluster.shared(NAME, SHARDS);
  }

  public static Connection connect() throws SQLException {
    return DriverManager.getConnection(URL);
  }

  public static Connection connect(String options) throws SQLException {
    return DriverManager.getConnection(URL + "&" + options);
  }

  /** Runs statements through Shardex, in order, on one connection (test set-up). */
  public static void run(String... sqls) throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      for (String sql : sqls) {
        s.execute(sql);
      }
    }
  }

  public static Cluster cluster(Connection c) throws SQLException {
    return c.unwrap(ShardexConnection.class).cluster();
  }

  /** Runs a query straight on one shard (no Shardex) and returns the first column of every row. */
  public static List<String> onShard(int shard, String sql) throws SQLException {
    try (Connection c = sandbox().connectShard(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  public static long countOnShard(int shard, String table, String where) throws SQLException {
    return Long.parseLong(onShard(shard, "SELECT COUNT(*) FROM " + table + (where == null ? "" : " WHERE " + where)).get(0));
  }

  private static final Connection[] MONITORS = new Connection[SHARDS];

  /**
   * A server status counter (e.g. Com_update) of one shard, read over a connection kept open for
   * the purpose: opening a connection runs Connector/J's own SELECTs, which would count.
   */
  public static synchronized long status(int shard, String variable) throws SQLException {
    if (MONITORS[shard] == null || MONITORS[shard].isClosed() || !MONITORS[shard].isValid(2)) {
      MONITORS[shard] = sandbox().connectShard(shard); // (a test may have restarted the shard)
    }
    try (Statement s = MONITORS[shard].createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
      rs.next();
      return rs.getLong(2);
    }
  }

  public static long[] statusAll(String variable) throws SQLException {
    long[] out = new long[SHARDS];
    for (int i = 0; i < SHARDS; i++) {
      out[i] = status(i, variable);
    }
    return out;
  }
}
