package dev.shardex.driver.execute;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.Directory;
import dev.shardex.directory.Redact;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.ShardexError;
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
  private final Credentials credentials;
  private final Properties passThrough;
  private final int poolSize;
  private final long connectTimeoutMs;
  private final String name;
  private final Map<Integer, Pool> pools = new ConcurrentHashMap<>();
  /** Replica pools by "shard/replica", made on a replica's first read (only connections that ask for replicas read one). */
  private final Map<String, Pool> replicas = new ConcurrentHashMap<>();
  private volatile int replicaPoolSize = 4;
  /** Primary pools' connections report each write's GTID in its OK packet (see {@link WriteGtid}). */
  private volatile boolean trackWrites;
  private final StatementCache statements = new StatementCache();
  private volatile dev.shardex.driver.events.ClusterEvents events = dev.shardex.driver.events.ClusterEvents.OFF;

  /** User and password for a shard: the URL's, unless shard.N.user / shard.N.password override. */
  public interface Credentials {
    String user(int shard);

    String password(int shard);
  }

  private record Pool(String url, HikariDataSource dataSource) {}

  public ShardPools(Directory directory, Credentials credentials, Properties passThrough, int poolSize,
      long connectTimeoutMs, String name) {
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
      SQLException named = borrowFailed(shard, pool, e);
      events.unreachable(shard, named);
      throw named;
    }
  }

  /**
   * A physical connection to one replica of a shard ({@code view}: the shard with the replica's URL),
   * from that replica's own smaller pool; its failure is named like a shard's (SHX1401 with the URL).
   */
  public Connection borrowReplica(Shard view, int replicaId) throws SQLException {
    String key = ReplicaHealth.key(view.id(), replicaId);
    Pool pool = replicas.get(key);
    if (pool == null || !pool.url().equals(view.url())) {
      pool = replicas.compute(key, (k, old) -> {
        if (old != null && old.url().equals(view.url())) {
          return old;
        }
        if (old != null) {
          old.dataSource().close();
        }
        return new Pool(view.url(), create(view, poolName(view.id()) + "-r" + replicaId, replicaPoolSize));
      });
    }
    try {
      return pool.dataSource().getConnection();
    } catch (SQLException e) {
      throw borrowFailed(view, pool, e);
    }
  }

  public void replicaPoolSize(int size) {
    this.replicaPoolSize = size;
  }

  /** Makes the primary pools made from now on track each write's GTID (a cluster whose connections read replicas). */
  public void trackWrites() {
    this.trackWrites = true;
  }

  /**
   * Names why no connection came: the shard refused the login or the connection (SHX1410), this
   * instance's pool for it is full (SHX1412), or the shard cannot be reached (SHX1401).
   */
  private SQLException borrowFailed(Shard shard, Pool pool, SQLException e) {
    String password = credentials.password(shard.id());
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof SQLException refused && refusal(refused)) {
        return ShardexError.SHARD_REFUSED.withCause(e, shard.id(), Redact.url(shard.url()),
            Redact.text(firstLine(refused.getMessage()), password), shard.id(), shard.id());
      }
    }
    var mx = pool.dataSource().getHikariPoolMXBean();
    if (e.getCause() == null && mx != null && mx.getActiveConnections() >= poolSize) {
      return ShardexError.POOL_EXHAUSTED.withCause(e, shard.id(), Redact.url(shard.url()), poolSize,
          Math.max(250, connectTimeoutMs));
    }
    return ShardErrors.unreachable(shard, e, password);
  }

  /** Access denied (28000, 1044/1045), unknown database (1049), too many connections (1040), host blocked (1129/1130). */
  private static boolean refusal(SQLException e) {
    return ErrorKind.accessRefused(e);
  }

  private static String firstLine(String s) {
    return s == null ? "no message" : s.lines().findFirst().orElse(s);
  }

  /** The physical statements kept for a borrowed connection. */
  StatementCache.Statements statements(Connection c) throws SQLException {
    return statements.of(c);
  }

  /**
   * Gives a borrowed connection back to its pool, or evicts it when it is broken: Shardex runs its
   * statements on the unwrapped Connector/J connection (see {@link StatementCache}), so HikariCP
   * does not see a communications error itself. {@code failed}: a statement on it just failed with
   * a connection error (SQLState class 08).
   */
  public void release(Shard shard, Connection c, boolean failed) throws SQLException {
    if (c.isClosed()) {
      return; // HikariCP already let it go (a connection error it saw itself)
    }
    if (failed || closedUnderneath(c)) {
      evict(shard, c);
    } else {
      c.close();
    }
  }

  private static boolean closedUnderneath(Connection c) {
    try {
      return c.unwrap(Connection.class).isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  /** Closes a connection for good instead of pooling it (its session carries SET state). */
  public void evict(Shard shard, Connection c) {
    statements.forget(c);
    Pool pool = pools.get(shard.id());
    if (pool == null || !pool.url().equals(shard.url())) { // a replica's connection: its own pool evicts it
      pool = replicas.values().stream().filter(p -> p.url().equals(shard.url())).findFirst().orElse(pool);
    }
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
        return new Pool(shard.url(), create(shard, poolName(shard.id()), poolSize));
      });
    }
    return pool;
  }

  /** Called with each shard pool's configuration just before the pool starts (telemetry sets its trackers). */
  public void tell(dev.shardex.driver.events.ClusterEvents to) {
    this.events = to;
  }

  /**
   * The shard's pool name, unique in the JVM: {@code name} carries the cluster's ordinal, so two
   * clusters of one instance (other credentials) never share a JMX name or a metrics tag.
   */
  public String poolName(int shard) {
    return "shardex-" + name + "-shard-" + shard;
  }

  /** The shard pool's figures, or null before the shard's first use. */
  public com.zaxxer.hikari.HikariPoolMXBean mxBean(int shard) {
    Pool pool = pools.get(shard);
    return pool == null ? null : pool.dataSource().getHikariPoolMXBean();
  }

  private HikariDataSource create(Shard shard, String poolName, int size) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(poolName);
    // the catalog's URLs hold no password ('shards add' refuses one); any credential in it still
    // goes to HikariCP as a property, never in the URL HikariCP logs
    Redact.Credentials split = Redact.credentials(shard.url());
    config.setJdbcUrl(split.url());
    String user = credentials.user(shard.id());
    String password = credentials.password(shard.id());
    config.setUsername(user != null ? user : split.user());
    config.setPassword(password != null ? password : split.password());
    config.setMaximumPoolSize(size);
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
    boolean primary = poolName.equals(poolName(shard.id()));
    if (primary && trackWrites) {
      WriteGtid.track(config);
    }
    passThrough.forEach((k, v) -> config.addDataSourceProperty(k.toString(), v));
    if (primary) { // a primary's pool: telemetry tracks it (replica pools not yet)
      events.poolCreating(shard.id(), config);
    }
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
    replicas.values().forEach(p -> p.dataSource().close());
    replicas.clear();
  }
}
