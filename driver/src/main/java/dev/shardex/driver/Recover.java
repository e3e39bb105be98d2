package dev.shardex.driver;

import dev.shardex.driver.cluster.ShardexProperty;
import dev.shardex.driver.execute.Recovery;
import dev.shardex.driver.jdbc.ShardexConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Recovery on demand, for the CLI and operators: one pass that finishes every prepared branch a
 * crash or a dead shard left behind (see {@link dev.shardex.driver.cluster.Cluster#recover}). A driver instance also runs it
 * at start and every 30 s by itself.
 *
 * <p>{@code java -cp ... dev.shardex.driver.Recover jdbc:shardex:mysql://dir-host/shardex USER PASSWORD}
 */
public final class Recover {
  private Recover() {}

  /** One recovery pass over every shard of the directory the URL names. */
  public static Recovery.Report run(String url, Properties info) throws SQLException {
    Properties p = new Properties();
    p.putAll(info);
    p.putIfAbsent(ShardexProperty.INSTANCE.key(), "recover");
    try (Connection c = DriverManager.getConnection(url, p)) {
      return c.unwrap(ShardexConnection.class).cluster().recover();
    }
  }

  public static void main(String[] args) throws SQLException {
    if (args.length < 1) {
      System.err.println("usage: Recover JDBC_URL [USER PASSWORD]");
      System.exit(2);
    }
    Properties p = new Properties();
    if (args.length >= 3) {
      p.setProperty("user", args[1]);
      p.setProperty("password", args[2]);
    }
    System.out.println("recovery: " + run(args[0], p));
    ShardexDriver.shutdown();
  }
}
