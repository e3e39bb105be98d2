package dev.shardex.directory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The directory connections that hold {@link LookupClaim}s, apart from the directory pool.
 *
 * <p>Why a pool of its own: a claim stays open while its rows are written on their shards, so it
 * holds a directory connection as long as a shard connection; sized with the shard pools, claims do
 * not queue behind the directory's four connections (nor starve its polls and placements). Its
 * connections stay in autocommit off (HikariCP's {@code autoCommit=false}), so a claim is its
 * {@code INSERT IGNORE} and a {@code COMMIT}: no {@code SET autocommit} either side, and HikariCP
 * has no state to reset when the claim gives its connection back. Connector/J keeps the session
 * and transaction state locally, so a claim that wrote nothing commits or rolls back without a
 * round trip, and keeps the claim statements prepared on the server.
 *
 * <p>Created on the first claim: a driver whose tables have no lookups starts no pool for them.
 */
final class ClaimPool implements AutoCloseable {
  private final String url;
  private final String user;
  private final String password;
  private final int size;
  private final long timeoutMs;
  private final String name;
  private final String display;
  private volatile HikariDataSource pool;
  private boolean closed;

  ClaimPool(String url, String user, String password, int size, long timeoutMs, String name, String display) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.size = size;
    this.timeoutMs = timeoutMs;
    this.name = name;
    this.display = display;
  }

  /** A connection in autocommit off, with no transaction open. */
  Connection connection() throws SQLException {
    HikariDataSource p = pool;
    if (p == null) {
      p = start();
    }
    try {
      return p.getConnection();
    } catch (SQLException e) {
      throw Directory.unreachable(e, display, password);
    }
  }

  private synchronized HikariDataSource start() throws SQLException {
    if (closed) {
      throw ShardexError.DIRECTORY_STATE.exception("the directory client " + name + " is closed; open a new connection");
    }
    if (pool == null) {
      pool = new HikariDataSource(config());
    }
    return pool;
  }

  private HikariConfig config() {
    HikariConfig config = new HikariConfig();
    config.setPoolName("shardex-claims-" + name);
    config.setJdbcUrl(url);
    config.setUsername(user);
    config.setPassword(password);
    config.setAutoCommit(false);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(timeoutMs);
    config.setInitializationFailTimeout(-1);
    config.addDataSourceProperty("useLocalSessionState", "true");
    config.addDataSourceProperty("useLocalTransactionState", "true");
    // prepared once per connection on the server, then executed in the binary protocol: the
    // server parses no claim again (LookupClaim.CHUNK keeps the multi-row texts few and short)
    config.addDataSourceProperty("useServerPrepStmts", "true");
    config.addDataSourceProperty("cachePrepStmts", "true");
    config.addDataSourceProperty("prepStmtCacheSize", "128");
    config.addDataSourceProperty("prepStmtCacheSqlLimit", "2048");
    return config;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (pool != null) {
      pool.close();
    }
  }
}
