package dev.shardex.driver.cluster;

import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.Redact;
import dev.shardex.driver.execute.ShardPools;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A connection request, parsed and validated once: the directory's URL and credentials, the
 * shardex options, and the options passed through to every shard. Immutable after parsing.
 *
 * <p>Passwords: the directory URL kept here has none, not even {@code user:password@} (they go in
 * {@code user}/{@code password}),
 * and {@link #toString()} never prints one.
 */
public final class ShardexConfig implements ShardPools.Credentials {
  public static final String PREFIX = "jdbc:shardex:";
  public static final String SANDBOX = "sandbox:";

  final String directoryUrl;
  final String sandboxName;
  final int sandboxShards;
  /** Replica servers per sandbox shard ({@code replicas=N} on a sandbox URL), 0 elsewhere. */
  final int sandboxReplicas;
  final String user;
  final String password;
  final Properties all;
  final Properties passThrough = new Properties();
  final boolean hints;
  final boolean scatterWrites;
  final long pollMs;
  final long leaseMs;
  final long frozenWaitMs;
  final long keyCacheSize;
  final long templateCacheSize;
  final int poolSize;
  final long connectTimeoutMs;
  final String instance;
  final long maxMergeRows;
  final int sequenceBlock;
  final dev.shardex.driver.execute.TransactionMode transactions;
  final int fanoutThreads;
  /** shardex.readTarget=replica_preferred; shardex.readOnlyTarget=replica; the replicas' lag bound and pool size. */
  final boolean replicaReads;
  final boolean readOnlyReplica;
  final long replicaMaxLagMs;
  final int replicaPoolSize;
  /** shardex.readYourWrites and shardex.causalWaitMs (only for connections that read from replicas). */
  final boolean readYourWrites;
  final long causalWaitMs;
  final boolean autoPoll;
  /** shardex.telemetry: jmx, listeners or none. */
  final String telemetry;
  /** shardex.slowLogMs; 0: off. */
  final long slowLogMs;
  final com.github.benmanes.caffeine.cache.Ticker ticker;

  /**
   * Test seam, only through {@code Properties} (never a URL): a Caffeine {@code Ticker} object under
   * this key replaces the lease clock, so lease expiry is tested without sleeping.
   */
  public static final String CLOCK = "shardex.clock";

  private ShardexConfig(String url, Properties info) throws SQLException {
    String rest = url.substring(PREFIX.length());
    int q = rest.indexOf('?');
    String base = q < 0 ? rest : rest.substring(0, q);
    Properties props = new Properties();
    if (q >= 0) {
      for (String pair : rest.substring(q + 1).split("&")) {
        if (!pair.isEmpty()) {
          int eq = pair.indexOf('=');
          props.setProperty(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
      }
    }
    Object clock = null;
    if (info != null) {
      for (java.util.Map.Entry<Object, Object> e : info.entrySet()) {
        if (CLOCK.equals(e.getKey())) {
          clock = e.getValue();
        } else {
          props.setProperty(e.getKey().toString(), e.getValue().toString());
        }
      }
    }
    if (clock != null && !(clock instanceof com.github.benmanes.caffeine.cache.Ticker)) {
      throw ShardexError.BAD_OPTION.exception(CLOCK, clock, "expected a com.github.benmanes.caffeine.cache.Ticker");
    }
    this.ticker = clock == null ? com.github.benmanes.caffeine.cache.Ticker.systemTicker()
        : (com.github.benmanes.caffeine.cache.Ticker) clock;
    this.all = props;
    if (base.startsWith(SANDBOX)) {
      this.sandboxName = base.substring(SANDBOX.length());
      this.sandboxShards = intOption(props, "shards", 4);
      this.sandboxReplicas = intOption(props, "replicas", 0, 0, 8);
      this.directoryUrl = null;
      if (sandboxName.isEmpty()) {
        throw ShardexError.BAD_OPTION.exception("sandbox name", "", "use jdbc:shardex:sandbox:NAME?shards=N");
      }
    } else {
      this.sandboxName = null;
      this.sandboxShards = 0;
      this.sandboxReplicas = 0;
      Redact.Credentials login = Redact.credentials("jdbc:" + base);
      this.directoryUrl = login.url();
      userInfo(props, login);
    }
    this.user = props.getProperty("user");
    this.password = props.getProperty("password");
    for (String name : props.stringPropertyNames()) {
      if (!ShardexProperty.isShardexOption(name) && !name.equals("user") && !name.equals("password")
          && !name.startsWith("shard.") && !name.equals(CLOCK) && !(sandboxName != null && (name.equals("shards") || name.equals("replicas")))) {
        passThrough.setProperty(name, props.getProperty(name));
      }
    }
    this.hints = ShardexProperty.HINTS.getBoolean(props);
    this.scatterWrites = ShardexProperty.SCATTER_WRITES.get(props).equalsIgnoreCase("allow");
    this.transactions = dev.shardex.driver.execute.TransactionMode.valueOf(
        ShardexProperty.TRANSACTIONS.get(props).toUpperCase(java.util.Locale.ROOT));
    this.pollMs = ShardexProperty.POLL_MS.getLong(props);
    this.leaseMs = ShardexProperty.LEASE_MS.getLong(props);
    this.frozenWaitMs = ShardexProperty.FROZEN_WAIT_MS.getLong(props);
    this.keyCacheSize = ShardexProperty.KEY_CACHE_SIZE.getLong(props);
    this.templateCacheSize = ShardexProperty.TEMPLATE_CACHE_SIZE.getLong(props);
    this.poolSize = (int) ShardexProperty.POOL_SIZE.getLong(props);
    this.connectTimeoutMs = ShardexProperty.CONNECT_TIMEOUT_MS.getLong(props);
    this.instance = ShardexProperty.INSTANCE.get(props);
    if (!validInstance(instance)) {
      throw ShardexError.BAD_OPTION.exception("shardex.instance", instance, "use at most 100 letters, digits, '_', '.' or '-'");
    }
    this.autoPoll = ShardexProperty.AUTO_POLL.getBoolean(props);
    this.telemetry = ShardexProperty.TELEMETRY.get(props).toLowerCase(java.util.Locale.ROOT);
    this.slowLogMs = ShardexProperty.SLOW_LOG_MS.getLongOrZero(props);
    this.maxMergeRows = ShardexProperty.MAX_MERGE_ROWS.getLong(props);
    this.sequenceBlock = (int) Math.min(1_000_000, ShardexProperty.SEQUENCE_BLOCK.getLong(props));
    this.fanoutThreads = (int) Math.min(256, ShardexProperty.FANOUT_THREADS.getLong(props));
    this.replicaReads = ShardexProperty.READ_TARGET.get(props).equalsIgnoreCase("replica_preferred");
    this.readOnlyReplica = ShardexProperty.READ_ONLY_TARGET.get(props).equalsIgnoreCase("replica");
    this.replicaMaxLagMs = ShardexProperty.REPLICA_MAX_LAG_MS.getLong(props);
    this.replicaPoolSize = (int) Math.min(1000, ShardexProperty.REPLICA_POOL_SIZE.getLong(props));
    this.readYourWrites = ShardexProperty.READ_YOUR_WRITES.getBoolean(props);
    this.causalWaitMs = Math.min(3_600_000, ShardexProperty.CAUSAL_WAIT_MS.getLong(props));
    if (pollMs >= leaseMs) {
      throw ShardexError.BAD_OPTION.exception("shardex.pollMs", pollMs, "must be smaller than shardex.leaseMs (" + leaseMs + ")");
    }
  }

  /**
   * {@code user:password@} of the directory URL (percent-decoded as Connector/J decodes it) wins
   * over {@code user=}/{@code password=}, as in Connector/J. It becomes those options, so the shards
   * get it too ({@code shard.N.*} still override) and the cluster key digests the password.
   */
  private static void userInfo(Properties props, Redact.Credentials login) {
    if (login.user() != null) {
      props.setProperty("user", login.user());
    }
    if (login.password() != null) {
      props.setProperty("password", login.password());
    }
  }

  /**
   * Where a URL points and as whom, for tools that talk to the directory itself (the admin CLI):
   * the directory's own JDBC URL with the options Connector/J takes (no shardex.* option, no
   * credentials), or the sandbox's name and shard count; the credentials the URL carries.
   */
  public record Target(String directoryUrl, String sandboxName, int sandboxShards, String user, String password) {}

  /** The directory's own URL (jdbc:mysql://...), its credentials and Shardex's options taken out. */
  public String directoryUrl() {
    return directoryUrl;
  }

  /** This URL's {@link Target}. */
  public Target target() {
    if (sandboxName != null) {
      return new Target(null, sandboxName, sandboxShards, user, password);
    }
    StringBuilder url = new StringBuilder(directoryUrl);
    for (String name : new java.util.TreeSet<>(passThrough.stringPropertyNames())) {
      url.append(url.indexOf("?") < 0 ? '?' : '&').append(name).append('=').append(passThrough.getProperty(name));
    }
    return new Target(url.toString(), null, 0, user, password);
  }

  public static boolean accepts(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  public static ShardexConfig parse(String url, Properties info) throws SQLException {
    return new ShardexConfig(url, info);
  }

  /** What this connection's reads may do with replicas, or null when it never reads from one (the default). */
  public dev.shardex.driver.execute.ReplicaReads.Ask replicaAsk() {
    return replicaReads || readOnlyReplica
        ? new dev.shardex.driver.execute.ReplicaReads.Ask(replicaReads, replicaMaxLagMs, readYourWrites ? causalWaitMs : 0)
        : null;
  }

  /** Whether this cluster's shard connections track each write's GTID (read-your-writes for replica reads). */
  public boolean tracksWrites() {
    return (replicaReads || readOnlyReplica) && readYourWrites;
  }

  public int replicaPoolSize() {
    return replicaPoolSize;
  }

  DirectoryOptions directoryOptions() {
    // a lookup claim holds a directory connection while it writes a shard: as many as a shard pool has
    return new DirectoryOptions(pollMs, leaseMs, frozenWaitMs, keyCacheSize, ticker, autoPoll, poolSize,
        !"none".equals(telemetry)); // the key caches count hits and misses only for telemetry
  }

  /**
   * Clusters are shared by connections that agree on these, passwords included (as a salted digest,
   * see {@link Authenticator}): a connection with other credentials never reuses an authenticated
   * cluster, it opens (and so logs in to) its own.
   */
  public String clusterKey() {
    // plain loops, no streams or lambdas: the first connection of a fresh JVM pays for every
    // lambda and stream pipeline it meets (see the README's start-up figures)
    java.util.TreeMap<String, String> options = new java.util.TreeMap<>();
    for (java.util.Map.Entry<Object, Object> e : all.entrySet()) {
      String name = e.getKey().toString();
      if (!Authenticator.isSecret(name)) {
        options.put(name, String.valueOf(e.getValue()));
      }
    }
    return (sandboxName != null ? "sandbox:" + sandboxName : directoryUrl) + '|' + user + '|' + instance + '|'
        + System.identityHashCode(ticker) + '|' + Authenticator.passwordDigest(all) + '|' + options;
  }

  /** At most 100 letters, digits, '_', '.' or '-' (a loop: no regex on the connect path). */
  private static boolean validInstance(String name) {
    if (name.isEmpty() || name.length() > 100) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char ch = name.charAt(i);
      boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'
          || ch == '.' || ch == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  public dev.shardex.driver.execute.TransactionMode transactions() {
    return transactions;
  }

  public long leaseMs() {
    return leaseMs;
  }

  public long maxMergeRows() {
    return maxMergeRows;
  }

  @Override
  public String user(int shard) {
    return all.getProperty("shard." + shard + ".user", user);
  }

  @Override
  public String password(int shard) {
    return all.getProperty("shard." + shard + ".password", password);
  }

  private static int intOption(Properties props, String name, int dflt) throws SQLException {
    return intOption(props, name, dflt, 1, 64);
  }

  private static int intOption(Properties props, String name, int dflt, int min, int max) throws SQLException {
    String v = props.getProperty(name, Integer.toString(dflt));
    try {
      int n = Integer.parseInt(v.trim());
      if (n < min || n > max) {
        throw ShardexError.BAD_OPTION.exception(name, v, "expected " + min + " to " + max);
      }
      return n;
    } catch (NumberFormatException e) {
      throw ShardexError.BAD_OPTION.exception(name, v, "expected a whole number");
    }
  }

  private static String decode(String s) {
    return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "ShardexConfig[" + (sandboxName != null ? "sandbox " + sandboxName : Redact.url(directoryUrl))
        + ", user=" + user + ", instance=" + instance + "]";
  }
}
