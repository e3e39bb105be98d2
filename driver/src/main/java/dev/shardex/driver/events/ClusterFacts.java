package dev.shardex.driver.events;

import com.zaxxer.hikari.HikariPoolMXBean;
import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryStats;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.execute.ShardPools;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/** A cluster as {@link ClusterView}: read from its directory client and shard pools when asked. */
public final class ClusterFacts implements ClusterView {
  private final String instance;
  private final String name;
  private final Directory directory;
  private final ShardPools pools;
  private volatile String dbSystem;

  public ClusterFacts(String instance, String name, Directory directory, ShardPools pools) {
    this.instance = instance;
    this.name = name;
    this.directory = directory;
    this.pools = pools;
  }

  @Override
  public String instance() {
    return instance;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String dbSystem() {
    String s = dbSystem;
    return s == null ? "mysql" : s;
  }

  /** Reads the server's kind from a shard connection once (Connector/J has it from the handshake: no round trip). */
  void learn(Connection c) {
    if (dbSystem == null) {
      try {
        dbSystem = c.getMetaData().getDatabaseProductVersion().contains("MariaDB") ? "mariadb" : "mysql";
      } catch (SQLException | RuntimeException e) {
        dbSystem = "mysql";
      }
    }
  }

  @Override
  public Set<Integer> shardIds() {
    return directory.shards().keySet();
  }

  @Override
  public String serverAddress(int shard) {
    Shard s = directory.shards().get(shard);
    return s == null ? null : address(s.url());
  }

  /** {@code host:port} of a JDBC URL ({@code jdbc:mysql://[user@]host[:port][/db][?...]}), 3306 when none is given. */
  static String address(String url) {
    int at = url.indexOf("//");
    String rest = at < 0 ? url : url.substring(at + 2);
    int end = rest.length();
    for (char stop : new char[] {'/', '?', ',', ';'}) {
      int i = rest.indexOf(stop);
      end = i >= 0 ? Math.min(end, i) : end;
    }
    String hostPort = rest.substring(rest.lastIndexOf('@', end - 1) + 1, end);
    return hostPort.indexOf(':', hostPort.lastIndexOf(']') + 1) < 0 ? hostPort + ":3306" : hostPort;
  }

  @Override
  public String poolName(int shard) {
    return pools.poolName(shard);
  }

  @Override
  public HikariPoolMXBean pool(int shard) {
    return pools.mxBean(shard);
  }

  @Override
  public DirectoryStats directory() {
    return directory.stats();
  }
}
