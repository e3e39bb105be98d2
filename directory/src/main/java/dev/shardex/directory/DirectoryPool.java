package dev.shardex.directory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.client.DirectoryConnections;
import dev.shardex.directory.client.DirectoryUnreachable;
import dev.shardex.directory.lookup.ClaimPool;
import java.sql.SQLException;

/**
 * Opens a {@link Directory} over a JDBC URL: its own small HikariCP pool (credentials taken out of the
 * URL and passed as properties, which HikariCP never logs), the lookup claims' pool, and every failure
 * to reach the directory named as SHX1406 with what still works. A refused login keeps its own error.
 */
final class DirectoryPool {
  private static final java.util.concurrent.atomic.AtomicInteger POOLS = new java.util.concurrent.atomic.AtomicInteger();

  private DirectoryPool() {}

  /** See {@link Directory#open(String, String, String, DirectoryOptions, String, java.sql.Connection)}. */
  static Directory open(String jdbcUrl, String user, String password, DirectoryOptions options, String clientName,
      java.sql.Connection login) throws SQLException {
    Redact.Credentials split = Redact.credentials(jdbcUrl);
    String name = user != null ? user : split.user();
    String secret = password != null ? password : split.password();
    String display = Redact.url(split.url());
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(split.url());
    DirectoryConnections connections = null;
    if (login != null) {
      connections = new DirectoryConnections(split.url(), name, secret, login);
      config.setDataSource(connections);
    } else {
      config.setUsername(name);
      config.setPassword(secret);
    }
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(Math.max(250, Math.min(5_000, options.leaseMs())));
    config.setInitializationFailTimeout(-1);
    // numbered: two clusters of one instance (other credentials) must not share a pool name (JMX, metrics)
    config.setPoolName("shardex-directory-" + clientName + "-" + POOLS.incrementAndGet());
    HikariDataSource pool = new HikariDataSource(config) {
      @Override
      public java.sql.Connection getConnection() throws SQLException {
        try {
          return super.getConnection();
        } catch (SQLException e) {
          throw DirectoryUnreachable.named(e, display, secret);
        }
      }
    };
    ClaimPool claims = new ClaimPool(split.url(), name, secret, options.claimPoolSize(), config.getConnectionTimeout(),
        clientName, display);
    try {
      return new Directory(new DirectoryStore(pool, claims), options, display, pool, clientName, null);
    } catch (SQLException e) {
      closeUnopened(pool, connections);
      throw DirectoryUnreachable.named(e, display, secret);
    } catch (RuntimeException e) {
      closeUnopened(pool, connections);
      throw e;
    }
  }

  private static void closeUnopened(HikariDataSource pool, DirectoryConnections connections) {
    pool.close();
    if (connections != null) {
      connections.discardUnused();
    }
  }
}
