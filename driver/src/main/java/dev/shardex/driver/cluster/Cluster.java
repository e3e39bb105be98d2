package dev.shardex.driver.cluster;

import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.driver.execute.ShardPools;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.sql.TemplateCache;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.Map;

/**
 * Everything logical connections of one driver instance share: the directory client (with its
 * caches and lease), the shard pools and the route-template cache. Opening one costs a few
 * directory round trips and no table-metadata scan, whatever the size of the catalog.
 */
public final class Cluster implements AutoCloseable {
  private final ShardexConfig config;
  private final Directory directory;
  private final ShardPools pools;
  private final TemplateCache templates;

  private Cluster(ShardexConfig config, Directory directory) {
    this.config = config;
    this.directory = directory;
    this.name = config.instance + "-c" + ORDINALS.incrementAndGet();
    this.pools = new ShardPools(directory, config, config.passThrough, config.poolSize, config.connectTimeoutMs, name);
    this.events = dev.shardex.driver.events.ClusterEvents.of(config.telemetry, config.slowLogMs,
        new dev.shardex.driver.events.ClusterFacts(config.instance, name, directory, pools));
    this.metrics = new dev.shardex.driver.execute.Metrics(events);
    pools.tell(events);
    if (config.tracksWrites()) {
      pools.trackWrites(); // before any pool exists: read-your-writes reads each write's GTID from its OK packet
    }
    events.open();
    this.templates = new TemplateCache(config.templateCacheSize);
    this.schemas = new dev.shardex.driver.route.TableSchemas(directory, id -> pools.borrow(directory.shard(id)));
    this.recoveryPass = new dev.shardex.driver.execute.Recovery(directory, pools, config.leaseMs * 3);
    if (config.transactions == dev.shardex.driver.execute.TransactionMode.XA
        || config.transactions == dev.shardex.driver.execute.TransactionMode.ATOMIC) {
      this.recovery = dev.shardex.driver.execute.Recovery.scheduler(config.instance);
      // The first pass starts now on the recovery thread instead of holding up the first connection:
      // reads never wait for a prepared branch's row locks (InnoDB reads the last committed version),
      // and a write or locking read that meets one waits on the lock until this pass finishes the
      // branch, as it would have waited for the pass itself. The pass also opens each shard's pool
      // and first connection while the caller parses its first statement.
      var unused = recovery.scheduleWithFixedDelay(recoveryTask(), 0, RECOVERY_PERIOD_S, // stopped with the executor
          java.util.concurrent.TimeUnit.SECONDS);
    } else {
      this.recovery = null;
    }
  }

  /** Numbers the clusters of this JVM: pool and MBean names carry it, so clusters never share one. */
  private static final java.util.concurrent.atomic.AtomicInteger ORDINALS = new java.util.concurrent.atomic.AtomicInteger();
  private final String name;
  private final dev.shardex.driver.events.ClusterEvents events;
  private final java.util.concurrent.ScheduledExecutorService recovery;
  private final dev.shardex.driver.execute.Recovery recoveryPass;
  /** Created on the first scatter: a point select never needs it. */
  private volatile java.util.concurrent.ThreadPoolExecutor fanout;
  private boolean closed;

  private Runnable recoveryTask() {
    return new Runnable() { // an inner class, not a method reference: no lambda bootstrap on the connect path
      @Override
      public void run() {
        recoverQuietly();
      }
    };
  }

  /**
   * Finishes prepared branches left by a crash or a shard that died mid-commit: atomic branches
   * by the commit record on their origin shard, xa branches by the directory's decision log; the
   * rest are rolled back once their transaction can no longer commit. Runs at start and every
   * 30 s with shardex.transactions=atomic or xa (those passes only read XA RECOVER unless a
   * branch is prepared); this call, and the CLI's {@code recover}, also delete every commit
   * record whose branches are all resolved.
   */
  public dev.shardex.driver.execute.Recovery.Report recover() throws SQLException {
    return told(recoveryPass.run(true));
  }

  private dev.shardex.driver.execute.Recovery.Report told(dev.shardex.driver.execute.Recovery.Report report) {
    events.recovered(report.committed(), report.rolledBack());
    return report;
  }

  private static final long RECOVERY_PERIOD_S = 30;

  /** Branches finished by one recovery pass (see {@link #recover}). */
  public int recoverXa() throws SQLException {
    return recover().finished();
  }

  private void recoverQuietly() {
    try {
      told(recoveryPass.run(false));
    } catch (SQLException | RuntimeException e) {
      // a shard or the directory is down: the next round retries
    }
  }

  private final dev.shardex.driver.execute.Metrics metrics;

  public dev.shardex.driver.execute.Metrics metrics() {
    return metrics;
  }

  /** The bounded pool that runs a statement's shards in parallel (created on first use). */
  public java.util.concurrent.Executor fanout() {
    java.util.concurrent.ThreadPoolExecutor f = fanout;
    if (f == null) {
      synchronized (this) {
        f = fanout;
        if (f == null) {
          f = dev.shardex.driver.execute.Fanouts.create(config.instance, config.fanoutThreads);
          if (closed) {
            f.shutdown(); // a statement racing with close: its tasks are refused, as before
          }
          fanout = f;
        }
      }
    }
    return events.fanout(f); // a listener may carry its context into the pool's threads
  }

  /**
   * Opens the cluster a URL names. {@code beforeSandboxStop}: what the embedded sandbox runs before
   * its servers stop at JVM exit (the driver closes its clusters first); unused for a mysql:// URL.
   */
  public static Cluster open(ShardexConfig config, Runnable beforeSandboxStop) throws SQLException {
    Warmup.start(); // the SQL parser loads on another core while the directory connection opens
    if (config.sandboxName != null) {
      return openSandbox(config, beforeSandboxStop);
    }
    java.sql.Connection login = Authenticator.login(config.directoryUrl, config.user, config.password,
        config.connectTimeoutMs);
    Directory dir = Directory.open(config.directoryUrl, config.user, config.password, config.directoryOptions(),
        config.instance, login);
    return new Cluster(config, dir);
  }

  /**
   * jdbc:shardex:sandbox:NAME starts (or reuses) an embedded cluster from the sandbox module, found
   * by reflection so the driver does not depend on it, and bootstraps its directory: schema, shard
   * catalog and the BIGINT key space {@code default}.
   */
  private static Cluster openSandbox(ShardexConfig config, Runnable beforeStop) throws SQLException {
    Map<String, String> sandbox = describeSandbox(config.sandboxName, config.sandboxShards, config.sandboxReplicas, beforeStop);
    // the sandbox's own (public) credentials apply only when the caller gives none
    String user = config.user != null ? config.user : sandbox.get("user");
    String password = config.user != null ? config.password : sandbox.get("password");
    java.util.Properties props = new java.util.Properties();
    props.putAll(config.all);
    props.setProperty("user", user);
    props.setProperty("password", password == null ? "" : password);
    props.remove("shards");
    props.remove("replicas");
    props.put(ShardexConfig.CLOCK, config.ticker);
    ShardexConfig resolved = ShardexConfig.parse(ShardexConfig.PREFIX + sandbox.get("directoryUrl").substring(5), props);
    Authenticator.login(resolved.directoryUrl, user, password, config.connectTimeoutMs).close();
    bootstrapSandbox(resolved, sandbox.get("shardUrls").split(","), sandbox.get("replicaUrls"));
    Directory dir = Directory.open(resolved.directoryUrl, user, password, config.directoryOptions(), config.instance);
    return new Cluster(resolved, dir);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> describeSandbox(String name, int shards, int replicas, Runnable beforeStop)
      throws SQLException {
    try {
      Class<?> sandbox = Class.forName("dev.shardex.sandbox.SandboxCluster");
      Method describe = sandbox.getMethod("describeShared", String.class, int.class, int.class);
      sandbox.getMethod("beforeStop", Runnable.class).invoke(null, beforeStop);
      return (Map<String, String>) describe.invoke(null, name, shards, replicas);
    } catch (ClassNotFoundException e) {
      throw ShardexError.BAD_OPTION.withCause(e, "jdbc:shardex:sandbox:", name,
          "the sandbox module (dev.shardex:shardex-sandbox) is not on the classpath; add it, or use a jdbc:shardex:mysql:// URL");
    } catch (ReflectiveOperationException | RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw ShardexError.DIRECTORY_STATE.withCause(cause, "cannot start sandbox cluster '" + name + "': " + cause.getMessage());
    }
  }

  /** {@code replicaUrls}: per shard its replicas' URLs comma-separated, the shards ';'-separated; null for none. */
  private static synchronized void bootstrapSandbox(ShardexConfig c, String[] shardUrls, String replicaUrls)
      throws SQLException {
    com.zaxxer.hikari.HikariConfig hc = new com.zaxxer.hikari.HikariConfig();
    hc.setJdbcUrl(c.directoryUrl);
    hc.setUsername(c.user);
    hc.setPassword(c.password);
    hc.setMaximumPoolSize(1);
    hc.setPoolName("shardex-sandbox-bootstrap");
    try (com.zaxxer.hikari.HikariDataSource ds = new com.zaxxer.hikari.HikariDataSource(hc)) {
      DirectoryStore store = new DirectoryStore(ds);
      store.init();
      if (store.shards().isEmpty()) {
        for (int i = 0; i < shardUrls.length; i++) {
          store.addShard(i, shardUrls[i], 1.0);
        }
      }
      if (store.keySpace(KeySpace.DEFAULT) == null) {
        store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
      }
      if (replicaUrls != null && store.replicas().isEmpty()) {
        String[] perShard = replicaUrls.split(";");
        for (int shard = 0; shard < perShard.length; shard++) {
          for (String url : perShard[shard].split(",")) {
            store.addReplica(shard, url, 1.0);
          }
        }
      }
    }
  }

  public Directory directory() {
    return directory;
  }

  public ShardPools pools() {
    return pools;
  }

  private dev.shardex.driver.execute.ReplicaHealth replicaHealth;

  /** The replicas' health, probed from the first replica read on (a cluster whose connections never ask has no probe). */
  public synchronized dev.shardex.driver.execute.ReplicaHealth replicaHealth() {
    if (replicaHealth == null && !closed) {
      pools.replicaPoolSize(config.replicaPoolSize());
      replicaHealth = new dev.shardex.driver.execute.ReplicaHealth(directory, pools, Math.max(50, config.pollMs), name);
    }
    return replicaHealth;
  }

  private final dev.shardex.driver.route.TableSchemas schemas;

  /** Tables' columns and unique keys, read from a shard on first use. */
  public dev.shardex.driver.route.TableSchemas schemas() {
    return schemas;
  }

  public TemplateCache templates() {
    return templates;
  }

  public ShardexConfig config() {
    return config;
  }

  public RouteContext routeContext(Integer preferredShard) {
    return routeContext(preferredShard, java.util.List.of());
  }

  public RouteContext routeContext(Integer preferredShard, java.util.Collection<AutoCloseable> held) {
    return new RouteContext(directory, config.hints, config.scatterWrites, preferredShard, false, config.sequenceBlock,
        held, schemas);
  }

  @Override
  public void close() {
    if (recovery != null) {
      recovery.shutdownNow();
      try { // a pass under way (the first starts with the cluster) finishes before its pools close; bounded
        // short, as a JVM's shutdown hook closes every cluster one after another
        recovery.awaitTermination(250, java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      closed = true;
      if (fanout != null) {
        fanout.shutdownNow();
      }
      if (replicaHealth != null) {
        replicaHealth.close();
      }
    }
    events.close();
    pools.close();
    directory.close();
  }
}
