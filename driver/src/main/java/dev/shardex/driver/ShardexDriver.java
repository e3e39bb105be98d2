package dev.shardex.driver;

import dev.shardex.driver.jdbc.ShardexConnection;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The JDBC entry point for {@code jdbc:shardex:} URLs, registered through
 * META-INF/services/java.sql.Driver. Connections that agree on directory, user, options and
 * {@code shardex.instance} share one {@link Cluster}; {@link #shutdown()} closes them all.
 */
public final class ShardexDriver implements Driver {
  private static final Map<String, Cluster> CLUSTERS = new ConcurrentHashMap<>();

  static {
    register();
    Runtime.getRuntime().addShutdownHook(new Thread(ShardexDriver::shutdown, "shardex-shutdown"));
  }

  public static void register() {
    try {
      if (Registration.registered) {
        return;
      }
      DriverManager.registerDriver(new ShardexDriver());
      Registration.registered = true;
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final class Registration {
    static volatile boolean registered;
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    ShardexConfig config = ShardexConfig.parse(url, info);
    return new ShardexConnection(cluster(config), url);
  }

  static Cluster cluster(ShardexConfig config) throws SQLException {
    String key = config.clusterKey();
    Cluster c = CLUSTERS.get(key);
    if (c == null) {
      synchronized (CLUSTERS) {
        c = CLUSTERS.get(key);
        if (c == null) {
          c = Cluster.open(config);
          CLUSTERS.put(key, c);
        }
      }
    }
    return c;
  }

  /** Closes every cluster (directory clients, pools); later connections open new ones. */
  public static void shutdown() {
    synchronized (CLUSTERS) {
      CLUSTERS.values().forEach(Cluster::close);
      CLUSTERS.clear();
    }
  }

  @Override
  public boolean acceptsURL(String url) {
    return ShardexConfig.accepts(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    Properties props = info == null ? new Properties() : info;
    return Arrays.stream(ShardexProperty.values()).map(p -> p.info(props)).toArray(DriverPropertyInfo[]::new);
  }

  @Override
  public int getMajorVersion() {
    return 0;
  }

  @Override
  public int getMinorVersion() {
    return 1;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("Shardex logs through SLF4J", "0A000");
  }
}
