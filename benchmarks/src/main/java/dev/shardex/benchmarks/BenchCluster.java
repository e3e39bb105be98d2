package dev.shardex.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The benchmark's world: a 4-shard sandbox, the blog schema on every shard, {@code users} users
 * with {@code postsPerUser} posts each, loaded straight into the owning shard, and a directory that
 * places user {@code u} on shard {@code u % shards} (set with {@link DirectoryStore#assign}), the
 * same rule ShardingSphere's inline {@code ds_${user_id % 4}} applies.
 *
 * <p>Every contender reaches the shards with the same Connector/J options ({@link #CONNECTOR_J}),
 * the ones Shardex sets on its own shard connections, so the comparison measures the drivers and
 * not their defaults.
 */
public final class BenchCluster implements AutoCloseable {
  /** Connector/J options shared by all three contenders (Shardex sets these itself on shards). */
  public static final String CONNECTOR_J = "sslMode=DISABLED&allowPublicKeyRetrieval=true&useLocalSessionState=true"
      + "&cachePrepStmts=true&prepStmtCacheSize=500&prepStmtCacheSqlLimit=4096";
  /**
   * Extra Connector/J options for every contender's shard connections (system property
   * {@code bench.connectorJ}, e.g. "&useServerPrepStmts=true"), for experiments; empty by default.
   */
  static final String EXTRA = System.getProperty("bench.connectorJ", "");

  /** Loaded posts are spread over 200 days from here; the scatter COUNT reads the last 2 days (about 1%). */
  public static final long POSTS_FROM_MS = Timestamp.valueOf("2026-01-01 00:00:00").getTime();
  static final long SPREAD_SECONDS = 200L * 86_400;
  public static final Timestamp SCATTER_SINCE = new Timestamp(POSTS_FROM_MS + (SPREAD_SECONDS - 2 * 86_400) * 1000);
  /** Posts inserted by the insert workload are dated before every loaded post: timelines and the scatter range stay put. */
  public static final long INSERTED_FROM_MS = Timestamp.valueOf("2001-01-01 00:00:00").getTime();

  static final String[] SCHEMA = {
    "CREATE TABLE users (user_id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL, "
        + "email VARCHAR(128) NOT NULL, visits INT NOT NULL DEFAULT 0) ENGINE=InnoDB",
    "CREATE TABLE posts (post_id BIGINT NOT NULL PRIMARY KEY, user_id BIGINT NOT NULL, created_at DATETIME NOT NULL, "
        + "views INT NOT NULL DEFAULT 0, title VARCHAR(128) NOT NULL, body VARCHAR(512) NOT NULL, "
        + "KEY by_user_time (user_id, created_at), KEY by_time (created_at)) ENGINE=InnoDB"
  };

  private final SandboxCluster sandbox;
  private final int users;
  private final int postsPerUser;
  private final HikariDataSource directoryPool;
  private final DirectoryStore store;
  private int[] owners;

  private BenchCluster(SandboxCluster sandbox, int users, int postsPerUser) {
    this.sandbox = sandbox;
    this.users = users;
    this.postsPerUser = postsPerUser;
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(sandbox.directoryUrl() + "?" + CONNECTOR_J);
    config.setUsername(sandbox.user());
    config.setPassword(sandbox.password());
    config.setMaximumPoolSize(8);
    config.setPoolName("bench-directory-admin");
    this.directoryPool = new HikariDataSource(config);
    this.store = new DirectoryStore(directoryPool);
  }

  /** Starts the sandbox and initialises the directory (shards, key space, the two tables); loads nothing. */
  public static BenchCluster start(String name, int shards, int users, int postsPerUser) throws SQLException {
    BenchCluster c = new BenchCluster(SandboxCluster.start(name, shards), users, postsPerUser);
    try {
      c.initDirectory();
      c.createSchema();
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  private void initDirectory() throws SQLException {
    store.init();
    for (int i = 0; i < shardCount(); i++) {
      store.addShard(i, sandbox.shardUrl(i), 1.0); // as an operator would: no options in the catalog
    }
    store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
    store.declareTable(TableDef.sharded("users", KeySpace.DEFAULT, "user_id"));
    store.declareTable(TableDef.sharded("posts", KeySpace.DEFAULT, "user_id"));
  }

  private void createSchema() throws SQLException {
    for (int i = 0; i < shardCount(); i++) {
      try (Connection c = connectShard(i); Statement s = c.createStatement()) {
        for (String ddl : SCHEMA) {
          s.execute(ddl);
        }
      }
    }
  }

  /** Places every user with {@code assign} (u -> u % shards), in parallel; returns the milliseconds taken. */
  public long placeUsers(int threads) throws Exception {
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        parts.add(pool.submit(() -> {
          for (int u = first; u < users; u += threads) {
            assign(u);
          }
          return null;
        }));
      }
      for (Future<?> f : parts) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** assign() takes the change-log counter and two shard rows: concurrent assigns can deadlock; retry those. */
  private void assign(int user) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try {
        store.assign(KeySpace.DEFAULT, Integer.toString(user), user % shardCount());
        return;
      } catch (SQLException e) {
        if (!"40001".equals(e.getSQLState()) || attempt == 10) {
          throw e;
        }
      }
    }
  }

  /** Loads users and posts straight into each owning shard (one thread per shard); returns ms taken. */
  public long loadRows() throws Exception {
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(shardCount());
    try {
      List<Future<?>> parts = new ArrayList<>();
      for (int s = 0; s < shardCount(); s++) {
        int shard = s;
        parts.add(pool.submit(() -> {
          loadShard(shard);
          return null;
        }));
      }
      for (Future<?> f : parts) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  private void loadShard(int shard) throws SQLException {
    try (Connection c = DriverManager.getConnection(sandbox.shardUrl(shard) + "?" + CONNECTOR_J
        + "&rewriteBatchedStatements=true", sandbox.user(), sandbox.password())) {
      c.setAutoCommit(false);
      try (PreparedStatement u = c.prepareStatement("INSERT INTO users (user_id, name, email, visits) VALUES (?, ?, ?, 0)");
          PreparedStatement p = c.prepareStatement(
              "INSERT INTO posts (post_id, user_id, created_at, views, title, body) VALUES (?, ?, ?, ?, ?, ?)")) {
        int batched = 0;
        for (int user = shard; user < users; user += shardCount()) {
          u.setLong(1, user);
          u.setString(2, "user-" + user);
          u.setString(3, "user" + user + "@example.com");
          u.addBatch();
          for (int j = 0; j < postsPerUser; j++) {
            long postId = (long) user * postsPerUser + j;
            p.setLong(1, postId);
            p.setLong(2, user);
            p.setTimestamp(3, new Timestamp(POSTS_FROM_MS + (postId * 7919 % SPREAD_SECONDS) * 1000));
            p.setInt(4, (int) (postId % 1000));
            p.setString(5, "post " + postId + " by user " + user);
            p.setString(6, "Lorem ipsum dolor sit amet, post " + postId + ", consectetur adipiscing elit.");
            p.addBatch();
            if (++batched % 2_000 == 0) {
              u.executeBatch();
              p.executeBatch();
              c.commit();
            }
          }
        }
        u.executeBatch();
        p.executeBatch();
        c.commit();
      }
      try (Statement s = c.createStatement()) {
        s.execute("ANALYZE TABLE users, posts");
      }
    }
  }

  /**
   * Reads the key map back from the directory: the owner of every user, which the direct contender
   * uses to pick its shard. Fails when the directory does not place users as u % shards.
   */
  public int[] readOwners() throws SQLException {
    int[] found = new int[users];
    java.util.Arrays.fill(found, -1);
    try (Connection c = directoryPool.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT k, shard_id FROM key_map WHERE keyspace = ?")) {
      ps.setString(1, KeySpace.DEFAULT);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long k = Long.parseLong(rs.getString(1));
          if (k >= 0 && k < users) {
            found[(int) k] = rs.getInt(2);
          }
        }
      }
    }
    for (int u = 0; u < users; u++) {
      if (found[u] != u % shardCount()) {
        throw new IllegalStateException("the directory places user " + u + " on shard " + found[u]
            + ", expected " + (u % shardCount()) + " (user_id % " + shardCount() + ")");
      }
    }
    owners = found;
    return found;
  }

  public int owner(long user) {
    return owners[(int) user];
  }

  public SandboxCluster sandbox() {
    return sandbox;
  }

  public DirectoryStore store() {
    return store;
  }

  public int shardCount() {
    return sandbox.shardCount();
  }

  public int users() {
    return users;
  }

  public int postsPerUser() {
    return postsPerUser;
  }

  /** The URL of a shard with the shared Connector/J options. */
  public String shardUrl(int shard) {
    return sandbox.shardUrl(shard) + "?" + CONNECTOR_J + EXTRA;
  }

  public Connection connectShard(int shard) throws SQLException {
    return DriverManager.getConnection(shardUrl(shard), sandbox.user(), sandbox.password());
  }

  /** Shardex pointed at this sandbox's directory; {@code instance} names the driver instance. */
  public String shardexUrl(String instance) {
    return "jdbc:shardex:" + sandbox.directoryUrl().substring("jdbc:".length()) + "?user=" + sandbox.user()
        + "&password=" + sandbox.password() + "&shardex.instance=" + instance
        + "&sslMode=DISABLED&allowPublicKeyRetrieval=true" + EXTRA; // passed to the shards; Shardex sets the rest of CONNECTOR_J
  }

  @Override
  public void close() {
    directoryPool.close();
    sandbox.close();
  }
}
