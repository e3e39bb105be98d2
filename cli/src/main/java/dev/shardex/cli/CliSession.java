package dev.shardex.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.Redact;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.move.ShardConnector;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One command's connections: a small pool to the directory (moves hold one connection each for
 * their lock) and direct connections to shards, made from the catalog's URLs and the shard
 * credentials. Passwords only ever travel as connection properties; messages are redacted.
 */
final class CliSession implements AutoCloseable {
  private final HikariDataSource pool;
  private final DirectoryStore store;
  private final String shardUser;
  private final String shardPassword;
  private final Map<Integer, String> shardUrls = new ConcurrentHashMap<>();
  final String display;

  private CliSession(HikariDataSource pool, String display, String shardUser, String shardPassword) {
    this.pool = pool;
    this.store = new DirectoryStore(pool);
    this.display = display;
    this.shardUser = shardUser;
    this.shardPassword = shardPassword;
  }

  static CliSession open(DirectoryTarget target, String shardUser, String shardPassword, int poolSize) throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(target.jdbcUrl());
    if (target.user() != null) {
      config.setUsername(target.user());
    }
    if (target.password() != null) {
      config.setPassword(target.password());
    }
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(5_000);
    // One attempt at start-up, so an unreachable directory fails at once instead of after the pool's timeout.
    config.setInitializationFailTimeout(1);
    config.setPoolName("shardex-cli");
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      Throwable root = e.getCause() != null ? e.getCause() : e;
      throw ShardexError.DIRECTORY_UNREACHABLE.withCause(root, target.display(), Redact.text(root.getMessage(), target.password()));
    }
    return new CliSession(pool, target.display(), shardUser != null ? shardUser : target.user(),
        shardPassword != null ? shardPassword : target.password());
  }

  DirectoryStore store() {
    return store;
  }

  ShardConnector shards() {
    return this::connectShard;
  }

  private Connection connectShard(int id) throws SQLException {
    String url = shardUrls.get(id);
    if (url == null) {
      for (Shard s : store.shards()) {
        shardUrls.put(s.id(), s.url());
      }
      url = shardUrls.get(id);
      if (url == null) {
        throw ShardexError.UNKNOWN_SHARD.exception(id);
      }
    }
    return connect(id, url);
  }

  /** A direct Connector/J connection to a server of shard {@code id} (its primary or a replica), with the shard credentials. */
  Connection connect(int id, String url) throws SQLException {
    Properties props = new Properties();
    if (shardUser != null) {
      props.setProperty("user", shardUser);
    }
    if (shardPassword != null) {
      props.setProperty("password", shardPassword);
    }
    props.setProperty("connectTimeout", "5000");
    props.setProperty("rewriteBatchedStatements", "true");
    try {
      // Connector/J itself, not DriverManager: a shard connection must never be a shardex one.
      Connection c = new com.mysql.cj.jdbc.Driver().connect(url, props);
      if (c == null) {
        throw ShardexError.BAD_URL.exception("Connector/J does not accept the URL " + dev.shardex.directory.Redact.url(url));
      }
      return c;
    } catch (SQLException e) {
      throw ShardexError.SHARD_UNREACHABLE.withCause(e, id, Redact.url(url), Redact.text(e.getMessage(), shardPassword));
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
