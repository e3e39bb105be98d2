package dev.shardex.driver.cluster;

import dev.shardex.vocabulary.ShardexError;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Every {@code shardex.*} option, with its default and meaning. One list feeds the driver's
 * getPropertyInfo, the DataSource's setters, validation, and the README's option table.
 */
public enum ShardexProperty {
  HINTS("shardex.hints", "false", "Honour routing hints /* shardex:key=K */ and /* shardex:shard=N */.", "true", "false"),
  SCATTER_WRITES("shardex.scatterWrites", "deny",
      "UPDATE/DELETE of a SHARDED table without its key: 'deny' refuses them, 'allow' runs them on every shard.",
      "deny", "allow"),
  TRANSACTIONS("shardex.transactions", "atomic",
      "A transaction that touches a second shard: 'atomic' commits all its shards or none (one shard: a plain local transaction; more: XA branches committed by a record in the first shard's local commit, with recovery); 'single' refuses it; 'best_effort' commits shard by shard and names any shard that failed; 'xa' uses MySQL XA two-phase commit on every shard with a decision log in the directory.",
      "atomic", "single", "best_effort", "xa"),
  POLL_MS("shardex.pollMs", "100", "How often (ms) the driver polls the directory's change log and heartbeats."),
  LEASE_MS("shardex.leaseMs", "2000",
      "Writes are refused once the last successful directory poll is older than this (ms)."),
  FROZEN_WAIT_MS("shardex.frozenWaitMs", "5000", "How long (ms) a write to a key being moved waits before failing."),
  KEY_CACHE_SIZE("shardex.keyCacheSize", "1000000", "Maximum cached key placements per key space."),
  TEMPLATE_CACHE_SIZE("shardex.templateCacheSize", "10000", "Maximum cached route templates (distinct SQL texts)."),
  POOL_SIZE("shardex.poolSize", "10",
      "Maximum physical connections per shard (HikariCP maximumPoolSize), and of the directory connections that hold lookup claims."),
  CONNECT_TIMEOUT_MS("shardex.connectTimeoutMs", "3000",
      "How long (ms) a statement waits for a shard connection before failing with SHX1401 (SQLState 57S01)."),
  MAX_MERGE_ROWS("shardex.maxMergeRows", "100000",
      "Most rows a cross-shard merge may read (grouped, DISTINCT, LIMIT n OFFSET m pulls n+m per shard); more is refused."),
  FANOUT_THREADS("shardex.fanoutThreads", "8",
      "Threads (per driver instance) that run a statement's shards in parallel; when all are busy the caller runs the next shard itself."),
  SEQUENCE_BLOCK("shardex.sequenceBlock", "1000",
      "How many ids of a sequence-filled column a driver instance reserves from the directory at a time."),
  AUTO_POLL("shardex.autoPoll", "true",
      "Poll the directory in the background. Off only for tests that poll by hand; with it off the lease lapses unless they do.",
      "true", "false"),
  TELEMETRY("shardex.telemetry", "jmx",
      "'jmx': the cluster's MBeans (dev.shardex and HikariCP's) plus any registered listener (shardex-micrometer, shardex-opentelemetry); 'listeners': registered listeners only; 'none': no events, no cache statistics.",
      "jmx", "listeners", "none"),
  SLOW_LOG_MS("shardex.slowLogMs", "1000",
      "Log (WARN, at most one line a second, literals replaced by ?) statements slower than this (ms) and refused statements; 0 turns it off."),
  READ_TARGET("shardex.readTarget", "primary",
      "Where this connection's reads go: 'primary'; 'replica_preferred' sends autocommit SELECTs without locking or session functions to a healthy replica of the shard (lag within shardex.replicaMaxLagMs, past every move), else to the primary (docs/replicas.md).",
      "primary", "replica_preferred"),
  READ_ONLY_TARGET("shardex.readOnlyTarget", "primary",
      "What Connection.setReadOnly(true) does to reads: 'primary' (the default: an application that reads its own writes stays correct) or 'replica' (as shardex.readTarget=replica_preferred while read-only).",
      "primary", "replica"),
  REPLICA_MAX_LAG_MS("shardex.replicaMaxLagMs", "5000",
      "A replica whose measured lag is above this (ms), or unknown, takes no reads; they go to the primary."),
  REPLICA_POOL_SIZE("shardex.replicaPoolSize", "4", "Maximum physical connections per replica (HikariCP maximumPoolSize)."),
  READ_YOUR_WRITES("shardex.readYourWrites", "true",
      "For connections that read from replicas: a replica read of a shard this connection wrote first waits (in the same round trip, MASTER_GTID_WAIT) until the replica has applied that write, else goes to the primary; 'false' reads replicas as they are (docs/replicas.md).",
      "true", "false"),
  CAUSAL_WAIT_MS("shardex.causalWaitMs", "1000",
      "How long (ms) a replica read waits for this connection's last write on that shard (shardex.readYourWrites) before it goes to the primary instead."),
  INSTANCE("shardex.instance", "default",
      "Name of this driver instance; connections with the same directory, user and instance share one directory client, caches and pools.");

  private final String key;
  private final String defaultValue;
  private final String description;
  @SuppressWarnings("ImmutableEnumChecker") // never written after construction, never handed out
  private final String[] choices;

  ShardexProperty(String key, String defaultValue, String description, String... choices) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.description = description;
    this.choices = choices;
  }

  public String key() {
    return key;
  }

  public String defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  public String get(Properties props) throws SQLException {
    String v = props.getProperty(key, defaultValue).trim();
    if (choices.length > 0 && !isChoice(v)) {
      throw ShardexError.BAD_OPTION.exception(key, v, "expected one of " + String.join(", ", choices));
    }
    return v;
  }

  private boolean isChoice(String v) {
    for (String c : choices) { // a loop, not a stream: this runs on a fresh JVM's first connection
      if (c.equalsIgnoreCase(v)) {
        return true;
      }
    }
    return false;
  }

  public boolean getBoolean(Properties props) throws SQLException {
    return Boolean.parseBoolean(get(props));
  }

  public long getLong(Properties props) throws SQLException {
    String v = get(props);
    try {
      long n = Long.parseLong(v);
      if (n <= 0) {
        throw ShardexError.BAD_OPTION.exception(key, v, "expected a positive whole number");
      }
      return n;
    } catch (NumberFormatException e) {
      throw ShardexError.BAD_OPTION.exception(key, v, "expected a positive whole number");
    }
  }

  /** A whole number, 0 or more (0 turns the feature off). */
  public long getLongOrZero(Properties props) throws SQLException {
    return "0".equals(get(props)) ? 0 : getLong(props);
  }

  public DriverPropertyInfo info(Properties props) {
    DriverPropertyInfo info = new DriverPropertyInfo(key, props.getProperty(key, defaultValue));
    info.description = description + " Default: " + defaultValue + ".";
    info.choices = choices.length > 0 ? choices.clone() : null;
    return info;
  }

  public static boolean isShardexOption(String name) {
    return name.startsWith("shardex.");
  }
}
