package dev.shardex.benchmarks.micro;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.driver.ShardexDriver;
import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.TemplateCache;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.DriverManager;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A real directory (an embedded MariaDB directory server) with 4 shards in its catalog, the blog's
 * two SHARDED tables and {@link #KEYS} users placed u -> u % 4, and a real Shardex driver instance
 * over it (a {@code jdbc:shardex:mysql://} connection, unwrapped to its {@link Cluster}): its
 * {@link Directory} with the driver's default options (background polling on, so the lease is
 * live) and every key already cached, and the benchmarked statements' templates, analysed once
 * as a prepared statement holds them. Routing never connects to a shard, so the
 * sandbox runs one shard server and the catalog names it four times.
 */
@State(Scope.Benchmark)
public class DirectoryFixture {
  public static final int KEYS = 1024;
  public static final String POINT = "SELECT user_id, name, email, visits FROM users WHERE user_id = ?";
  public static final String UPDATE = "UPDATE users SET visits = visits + 1 WHERE user_id = ?";
  public static final String INSERT =
      "INSERT INTO posts (post_id, user_id, created_at, views, title, body) VALUES (?, ?, ?, 0, ?, ?)";

  public SandboxCluster sandbox;
  public HikariDataSource pool;
  public Connection connection;
  public Cluster cluster;
  public Directory directory;
  public TemplateCache templates;
  public Long[] keys;
  public Object[][] pointValues;
  public Object[][] insertValues;
  public RouteTemplate point;
  public RouteTemplate update;
  public RouteTemplate insert;
  /** A plain point select per key, its literal written in the text (PlainStatementBenchmark). */
  public String[] plainPointTexts;

  @Setup(Level.Trial)
  public void start() throws Exception {
    sandbox = SandboxCluster.start("jmh-" + ProcessHandle.current().pid(), 1);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(sandbox.directoryUrl() + "?sslMode=DISABLED&allowPublicKeyRetrieval=true");
    config.setUsername(sandbox.user());
    config.setPassword(sandbox.password());
    config.setMaximumPoolSize(4);
    pool = new HikariDataSource(config);
    DirectoryStore store = new DirectoryStore(pool);
    store.init();
    for (int i = 0; i < 4; i++) {
      store.addShard(i, sandbox.shardUrl(0), 1.0);
    }
    store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
    store.declareTable(TableDef.sharded("users", KeySpace.DEFAULT, "user_id"));
    store.declareTable(TableDef.sharded("posts", KeySpace.DEFAULT, "user_id"));
    keys = new Long[KEYS];
    pointValues = new Object[KEYS][];
    plainPointTexts = new String[KEYS];
    insertValues = new Object[KEYS][];
    for (int u = 0; u < KEYS; u++) {
      store.assign(KeySpace.DEFAULT, Integer.toString(u), u % 4);
      keys[u] = (long) u;
      pointValues[u] = new Object[] {keys[u]};
      plainPointTexts[u] = "SELECT user_id, name, email, visits FROM users WHERE user_id = " + u;
      insertValues[u] = new Object[] {(long) u * 100, keys[u], new java.sql.Timestamp(0), "title", "body"};
    }
    connection = DriverManager.getConnection("jdbc:shardex:" + sandbox.directoryUrl().substring("jdbc:".length())
        + "?user=" + sandbox.user() + "&password=" + sandbox.password() + "&shardex.instance=jmh");
    cluster = connection.unwrap(ShardexConnection.class).cluster();
    directory = cluster.directory();
    for (Long k : keys) {
      if (directory.routeRead(KeySpace.DEFAULT, k) == null) {
        throw new IllegalStateException("key " + k + " is not placed");
      }
    }
    templates = cluster.templates();
    point = templates.prepared(POINT);
    update = templates.prepared(UPDATE);
    insert = templates.prepared(INSERT);
    templates.plain(plainPointTexts[0]);
  }

  @TearDown(Level.Trial)
  public void stop() {
    try {
      connection.close();
    } catch (java.sql.SQLException ignored) {
      // the sandbox is going away anyway
    }
    ShardexDriver.shutdown();
    pool.close();
    sandbox.close();
  }
}
