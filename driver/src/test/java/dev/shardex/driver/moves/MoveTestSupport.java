package dev.shardex.driver.moves;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.ShardConnector;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers of the move tests that go through the real driver: the directory store, error ids, figures. */
final class MoveTestSupport {
  /**
   * Sets up a fresh directory on the sandbox: shards 0..{@code shards}-1 (weight 1) and the default
   * BIGINT key space; returns the driver URL of {@code instance}.
   */
  static String freshDirectory(SandboxCluster sandbox, DirectoryStore store, int shards, String instance) throws SQLException {
    store.init();
    for (int i = 0; i < shards; i++) {
      store.addShard(i, sandbox.shardUrl(i), 1.0);
    }
    store.addKeySpace(new dev.shardex.vocabulary.KeySpace(dev.shardex.vocabulary.KeySpace.DEFAULT,
        dev.shardex.vocabulary.KeyType.BIGINT, dev.shardex.vocabulary.KeySpace.LEAST_LOADED));
    return "jdbc:shardex:" + sandbox.directoryUrl().substring("jdbc:".length()) + "?user=" + sandbox.user()
        + "&password=" + sandbox.password() + "&shardex.instance=" + instance;
  }

  private static final Pattern ERROR_ID = Pattern.compile("SHX\\d{4}");

  private MoveTestSupport() {}

  /** A pool on a sandbox's directory database, as the directory module's tests build it. */
  static HikariDataSource directoryPool(SandboxCluster sandbox, String poolName, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(sandbox.directoryUrl());
    config.setUsername(sandbox.user());
    config.setPassword(sandbox.password());
    config.addDataSourceProperty("sslMode", "DISABLED");
    config.addDataSourceProperty("allowPublicKeyRetrieval", "true");
    config.setMaximumPoolSize(size);
    config.setPoolName(poolName);
    return new HikariDataSource(config);
  }

  static DirectoryStore store(HikariDataSource pool) {
    return new DirectoryStore(pool);
  }

  static ShardConnector connector(SandboxCluster sandbox) {
    return sandbox::connectShard;
  }

  /**
   * Shard connections as the CLI opens them ({@code CliSession.connectShard}): Connector/J itself,
   * with {@code rewriteBatchedStatements=true}, so the copy's INSERT batches go as multi-row INSERTs.
   */
  static ShardConnector cliLikeConnector(SandboxCluster sandbox) {
    return shard -> {
      java.util.Properties props = new java.util.Properties();
      props.setProperty("user", sandbox.user());
      props.setProperty("password", sandbox.password());
      props.setProperty("connectTimeout", "5000");
      props.setProperty("rewriteBatchedStatements", "true");
      props.setProperty("sslMode", "DISABLED");
      props.setProperty("allowPublicKeyRetrieval", "true");
      return new com.mysql.cj.jdbc.Driver().connect(sandbox.shardUrl(shard), props);
    };
  }

  /** The Shardex error id of a failure (SHX1408, ...), else its SQLState and vendor code. */
  static String errorId(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null) {
        Matcher m = ERROR_ID.matcher(c.getMessage());
        if (m.find()) {
          return m.group();
        }
      }
    }
    if (t instanceof SQLException e) {
      return "SQLState " + e.getSQLState() + "/" + e.getErrorCode();
    }
    return t.getClass().getSimpleName();
  }

  /** A first line of a message, for reports. */
  static String firstLine(Throwable t) {
    String m = String.valueOf(t.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  static void onShard(SandboxCluster sandbox, int shard, String... sql) throws SQLException {
    try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  /** A counter per label (error ids, move outcomes), printed sorted. */
  static final class Tally {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    private final Map<String, String> examples = new ConcurrentHashMap<>();

    void add(String label) {
      counts.computeIfAbsent(label, k -> new LongAdder()).increment();
    }

    /** Counts a failure under its error id and keeps the first message of each id. */
    void add(String label, Throwable example) {
      add(label);
      examples.putIfAbsent(label, firstLine(example));
    }

    Map<String, String> examples() {
      return new TreeMap<>(examples);
    }

    long total() {
      return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    long get(String label) {
      LongAdder a = counts.get(label);
      return a == null ? 0 : a.sum();
    }

    @Override
    public String toString() {
      Map<String, Long> sorted = new TreeMap<>();
      counts.forEach((k, v) -> sorted.put(k, v.sum()));
      return sorted.isEmpty() ? "none" : sorted.toString();
    }
  }

  /** Nearest-rank percentile of sorted values (p in 0..100). */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  static String latencySummary(long[] micros) {
    long[] sorted = micros.clone();
    Arrays.sort(sorted);
    if (sorted.length == 0) {
      return "n=0";
    }
    return String.format("n=%d p50=%.1f ms p90=%.1f ms p99=%.1f ms max=%.1f ms", sorted.length,
        percentile(sorted, 50) / 1000.0, percentile(sorted, 90) / 1000.0, percentile(sorted, 99) / 1000.0,
        sorted[sorted.length - 1] / 1000.0);
  }

  /**
   * Writers inserting {@code (id, user_id)} rows through the driver, each on its own connection,
   * until stopped; {@link #acknowledged} holds the inserts the driver acknowledged (id -> user). A
   * refused insert (e.g. a frozen key's wait ran out) is not acknowledged and must not appear.
   */
  static final class InsertWriters {
    final java.util.concurrent.ConcurrentHashMap<Long, Long> acknowledged = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each acknowledged insert's latency in microseconds, keyed like {@link #acknowledged}. */
    final java.util.concurrent.ConcurrentHashMap<Long, Long> latencyMicros = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.ExecutorService pool;

    InsertWriters(String url, String table, int threads, int users, java.util.concurrent.atomic.AtomicLong ids,
        long pauseMs) {
      pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
      for (int t = 0; t < threads; t++) {
        pool.submit(() -> {
          try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
              java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, user_id) VALUES (?, ?)")) {
            while (!stop.get()) {
              long id = 1_000_000 + ids.incrementAndGet();
              long user = 1 + java.util.concurrent.ThreadLocalRandom.current().nextInt(users);
              ps.setLong(1, id);
              ps.setLong(2, user);
              try {
                long t0 = System.nanoTime();
                ps.executeUpdate();
                latencyMicros.put(id, (System.nanoTime() - t0) / 1_000);
                acknowledged.put(id, user);
              } catch (SQLException e) {
                // refused: not acknowledged, must not appear
              }
              Thread.sleep(pauseMs);
            }
          }
          return null;
        });
      }
    }

    /** Stops the writers and waits for them (at most 30 s). */
    void stop() throws InterruptedException {
      stop.set(true);
      pool.shutdown();
      org.junit.jupiter.api.Assertions.assertTrue(pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS),
          "the writers stopped");
    }
  }
}
