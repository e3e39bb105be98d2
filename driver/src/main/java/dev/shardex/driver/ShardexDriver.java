package dev.shardex.driver;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.cluster.ShardexConfig;
import dev.shardex.driver.cluster.ShardexProperty;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.vocabulary.ShardexError;
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
          c = Cluster.open(config, ShardexDriver::shutdown);
          CLUSTERS.put(key, c);
        }
      }
    }
    return c;
  }

  /**
   * Closes every cluster (directory clients, pools); later connections open new ones. The clusters
   * close at once, each on its own thread, and this waits at most {@link #SHUTDOWN_WAIT_MS}: at JVM
   * exit one slow close (a shard or directory already gone) must not hold up the others, nor the exit.
   */
  public static void shutdown() {
    synchronized (SHUTDOWN) { // a second caller (the sandbox's exit hook) waits for the first to finish
      closeAll();
    }
  }

  private static final Object SHUTDOWN = new Object();

  private static void closeAll() {
    java.util.List<Cluster> all;
    synchronized (CLUSTERS) {
      all = new java.util.ArrayList<>(CLUSTERS.values());
      CLUSTERS.clear();
    }
    java.util.List<Thread> closing = new java.util.ArrayList<>();
    for (Cluster c : all) {
      Thread t = new Thread(c::close, "shardex-close");
      t.setDaemon(true);
      t.start();
      closing.add(t);
    }
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_WAIT_MS);
    try {
      for (Thread t : closing) {
        long left = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left > 0) {
          t.join(left);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** How long {@link #shutdown} waits for the clusters to close. */
  static final long SHUTDOWN_WAIT_MS = 5_000;

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
    throw ShardexError.JDBC_UNSUPPORTED.featureNotSupported("getParentLogger", "Shardex logs through SLF4J");
  }
}
