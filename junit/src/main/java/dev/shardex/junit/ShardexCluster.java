package dev.shardex.junit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * A running sharded cluster for tests: the JDBC URL an application uses ({@code jdbc:shardex:...})
 * and direct connections to each shard, to check where rows landed.
 */
public final class ShardexCluster {
  private final Backend backend;
  private final String url;
  private final List<String> shardUrls;
  private final String user;
  private final String password;

  ShardexCluster(Backend backend, String url, List<String> shardUrls, String user, String password) {
    this.backend = backend;
    this.url = url;
    this.shardUrls = List.copyOf(shardUrls);
    this.user = user;
    this.password = password;
  }

  /** The URL to give the application (credentials included). */
  public String url() {
    return url;
  }

  public Backend backend() {
    return backend;
  }

  public int shardCount() {
    return shardUrls.size();
  }

  /** A new connection through Shardex; the caller closes it. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url);
  }

  /** A plain MySQL connection to one shard, bypassing Shardex; the caller closes it. */
  public Connection connectShard(int shard) throws SQLException {
    if (shard < 0 || shard >= shardUrls.size()) {
      throw new IndexOutOfBoundsException("the cluster has shards 0.." + (shardUrls.size() - 1) + ", not " + shard);
    }
    Properties properties = new Properties();
    properties.setProperty("user", user);
    properties.setProperty("password", password);
    properties.setProperty("allowPublicKeyRetrieval", "true");
    // Connector/J itself, not DriverManager: always a real MySQL connection, never Shardex's.
    return new com.mysql.cj.jdbc.Driver().connect(shardUrls.get(shard), properties);
  }

  @Override
  public String toString() {
    return "ShardexCluster[" + backend + ", " + shardUrls.size() + " shards]";
  }
}
