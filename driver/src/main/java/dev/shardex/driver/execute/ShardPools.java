package dev.shardex.driver.execute;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.Directory;
import dev.shardex.directory.Redact;
import dev.shardex.directory.Shard;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One HikariCP pool per shard, created on the shard's first use (so a cluster of many shards costs
 * nothing until it is used, and a shard that is down does not stop the driver from starting).
 * Pooling is HikariCP's job; this class only knows which pool serves which shard.
 */
public final class ShardPools implements AutoCloseable {
  private final Directory directory;
  private final Credentials credentials;
  private final Properties passThrough;
  private final int poolSize;
  private final long connectTimeoutMs;
  private final String name;
  private final Map<Integer, Pool> pools = new ConcurrentHashMap<>();

  /** User and password for a shard: the URL's, unless shard.N.user / shard.N.password override. */
  public interface Credentials {
    String user(int shard);

    String password(int shard);
  }

  private record Pool(String url, HikariDataSource dataSource) {}

  public ShardPools(Directory directory, Credentials credentials, Properties passThrough, int poolSize,
      long connectTimeoutMs, String name) {
    this.directory = directory;
    this.credentials = credentials;
    this.passThrough = passThrough;
    this.poolSize = poolSize;
    this.connectTimeoutMs = connectTimeoutMs;
    this.name = name;
  }

  /** A physical connection to the shard; SHX1401 naming the shard if it cannot be had. */
  public Connection borrow(Shard shard) throws SQLException {
    Pool pool = pool(shard);
    try {
      return pool.dataSource().getConnection();
    } catch (SQLException e) {
      throw ShardErrors.unreachable(shard, e, credentials.password(shard.id()));
    }
  }

  /** Closes a connection for good instead of pooling it (its session carries SET state). */
  public void evict(Shard shard, Connection c) {
    Pool pool = pools.get(shard.id());
    if (pool != null) {
      pool.dataSource().evictConnection(c);
    }
  }

  private Pool pool(Shard shard) {
    Pool pool = pools.get(shard.id());
    if (pool == null || !pool.url().equals(shard.url())) {
      pool = pools.compute(shard.id(), (id, old) -> {
        if (old != null && old.url().equals(shard.url())) {
          return old;
        }
        if (old != null) {
          old.dataSource().close();
        }
        return new Pool(shard.url(), create(shard));
      });
    }
    return pool;
  }

  private HikariDataSource create(Shard shard) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("shardex-" + name + "-shard-" + shard.id());
    config.setJdbcUrl(shard.url());
    config.setUsername(credentials.user(shard.id()));
    config.setPassword(credentials.password(shard.id()));
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(Math.max(250, connectTimeoutMs));
    config.setValidationTimeout(Math.max(250, Math.min(connectTimeoutMs, 5_000)));
    config.setInitializationFailTimeout(-1);
    // Connector/J settings the driver relies on; the application's own options override them.
    config.addDataSourceProperty("useLocalSessionState", "true");
    config.addDataSourceProperty("cachePrepStmts", "true");
    config.addDataSourceProperty("prepStmtCacheSize", "500");
    config.addDataSourceProperty("prepStmtCacheSqlLimit", "4096");
    config.addDataSourceProperty("allowMultiQueries", "true");
    config.addDataSourceProperty("connectTimeout", Long.toString(connectTimeoutMs));
    passThrough.forEach((k, v) -> config.addDataSourceProperty(k.toString(), v));
    return new HikariDataSource(config);
  }

  public String describe(int shard) {
    Pool pool = pools.get(shard);
    return pool == null ? "shard " + shard : Redact.url(pool.url());
  }

  @Override
  public void close() {
    pools.values().forEach(p -> p.dataSource().close());
    pools.clear();
  }
}
