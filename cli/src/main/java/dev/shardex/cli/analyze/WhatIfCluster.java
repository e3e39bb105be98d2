package dev.shardex.cli.analyze;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.route.TableSchemas;
import dev.shardex.driver.sql.TemplateCache;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cluster that exists only to be routed over: N shards that are entries in a real directory
 * schema, and one real database holding the application's tables, with no data.
 *
 * <p>Why a real directory and not an in-memory imitation: the router reads its catalog (tables,
 * key spaces, lookups, sequences) through {@link Directory}, whose caches, validation and change
 * log are the driver's own; imitating it would test the imitation. So both live in one embedded
 * MariaDB (the sandbox's binaries, one server for the directory and one for the schema, started
 * once per JVM), in databases of their own per analysis, dropped at {@link #close}. The one seam is
 * key placement: {@link Directory#openWhatIf} places an unknown key by {@link HashPlacer}, in
 * memory, where a driver's directory reads its key map; nothing else differs from the driver.
 *
 * <p>Every shard id points at the schema database, so when the router needs a table's columns or
 * unique keys (an INSERT without a column list, an upsert's keys) it reads them from
 * information_schema there, as the driver reads them from a shard. Nothing is ever executed.
 */
final class WhatIfCluster implements AutoCloseable {
  private static final AtomicInteger RUNS = new AtomicInteger();
  /**
   * A lease of a day: a what-if catalog never changes under the run, and a busy machine starving the
   * poll thread must not turn writes into SHX1407 refusals. Placements are recomputed by hash, so
   * 100,000 cached per key space keep memory small.
   */
  private static final DirectoryOptions OPTIONS = new DirectoryOptions(100, 86_400_000L, 5_000, 100_000,
      com.github.benmanes.caffeine.cache.Ticker.systemTicker(), true);

  private final SandboxCluster sandbox;
  private final String tag;
  private final String schemaUrl;
  private final HikariDataSource pool;
  private final Directory directory;
  private final TemplateCache templates = new TemplateCache(100_000);
  private final RouteContext context;
  private final TableSchemas schemas;
  private final int shards;
  private final List<String> schemaErrors;

  private WhatIfCluster(SandboxCluster sandbox, String tag, String schemaUrl, HikariDataSource pool, Directory directory,
      boolean scatterWrites, int shards, List<String> schemaErrors) {
    this.sandbox = sandbox;
    this.tag = tag;
    this.schemaUrl = schemaUrl;
    this.pool = pool;
    this.directory = directory;
    this.shards = shards;
    this.schemaErrors = schemaErrors;
    this.schemas = new TableSchemas(directory, shard -> connectSchema());
    this.context = new RouteContext(directory, false, scatterWrites, null, true, 1000, List.of(), schemas).explaining();
  }

  /** Creates the tables of {@code createTables} and declares them as their comments and then {@code layout} say. */
  static WhatIfCluster open(int shards, List<String> createTables, Layout layout, boolean scatterWrites)
      throws SQLException {
    SandboxCluster sandbox = SandboxCluster.shared("shardex-analyze", 1);
    String tag = ProcessHandle.current().pid() + "_" + RUNS.incrementAndGet();
    exec(sandbox.connectDirectory(), "CREATE DATABASE analyze_dir_" + tag);
    exec(sandbox.connectShard(0), "CREATE DATABASE analyze_" + tag);
    String schemaUrl = sandbox.shardUrl(0).replaceFirst("/[^/?]*(\\?|$)", "/analyze_" + tag + "$1");
    HikariDataSource pool = pool(sandbox.directoryUrl().replaceFirst("/[^/?]*(\\?|$)", "/analyze_dir_" + tag + "$1"),
        sandbox.user(), sandbox.password());
    try {
      DirectoryStore store = new DirectoryStore(pool);
      store.init();
      for (int i = 0; i < shards; i++) {
        store.addShard(i, schemaUrl, 1.0);
      }
      store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
      List<String> errors = Catalog.createTables(sandbox, schemaUrl, createTables);
      Directory directory = Directory.openWhatIf(store, OPTIONS, "analyze", new HashPlacer(shards));
      WhatIfCluster c = new WhatIfCluster(sandbox, tag, schemaUrl, pool, directory, scatterWrites, shards, errors);
      new Catalog(c, store).declare(Catalog.declarations(createTables).overriddenBy(layout), createTables);
      return c;
    } catch (SQLException | RuntimeException e) {
      pool.close();
      dropQuietly(sandbox, tag);
      throw e;
    }
  }

  private static HikariDataSource pool(String url, String user, String password) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(1);
    config.setPoolName("shardex-analyze");
    return new HikariDataSource(config);
  }

  Connection connectSchema() throws SQLException {
    return DriverManager.getConnection(schemaUrl, sandbox.user(), sandbox.password());
  }

  Directory directory() {
    return directory;
  }

  TemplateCache templates() {
    return templates;
  }

  RouteContext context() {
    return context;
  }

  /** A table's columns and unique keys as the schema database has them, declared or not. */
  TableSchemas.Schema schema(String table) throws SQLException {
    return schemas.ofAny(table);
  }

  /** The table's shard key in this cluster's layout, or null when it is not SHARDED. */
  String shardKey(String table) throws SQLException {
    TableDef def = directory.table(table);
    return def != null && def.kind() == dev.shardex.vocabulary.TableKind.SHARDED ? def.keyColumn() : null;
  }

  int shards() {
    return shards;
  }

  /** CREATE TABLE statements of the schema that the server refused (the report lists them). */
  List<String> schemaErrors() {
    return schemaErrors;
  }

  static void exec(Connection c, String... sql) throws SQLException {
    try (c; Statement s = c.createStatement()) {
      for (String q : sql) {
        s.execute(q);
      }
    }
  }

  @Override
  public void close() {
    directory.close();
    pool.close();
    dropQuietly(sandbox, tag);
  }

  private static void dropQuietly(SandboxCluster sandbox, String tag) {
    try {
      exec(sandbox.connectDirectory(), "DROP DATABASE IF EXISTS analyze_dir_" + tag);
      exec(sandbox.connectShard(0), "DROP DATABASE IF EXISTS analyze_" + tag);
    } catch (SQLException e) {
      // left for the sandbox's own clean-up: its data directory is deleted at JVM exit
    }
  }
}
