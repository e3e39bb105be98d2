package dev.shardex.directory.lookup;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.client.DirectoryUnreachable;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The directory connections that hold {@link LookupClaim}s, apart from the directory pool, and the
 * thread that releases their value locks.
 *
 * <p>Why a pool of its own: a claim holds its connection (and its values' locks) while its rows
 * are written on their shards, so as long as a shard connection; sized with the shard pools, claims
 * do not queue behind the directory's four connections (nor starve its polls and placements). Its
 * connections stay in autocommit, so an autocommit claim of one value is its one {@code INSERT
 * IGNORE}. Connector/J keeps the session and transaction state locally, and keeps the claim
 * statements prepared on the server.
 *
 * <p>Why a thread: a claim ends with {@code RELEASE_ALL_LOCKS}, a round trip the claimer need not
 * wait for (its rows are written; only racers of its values wait, and they wait for the release
 * either way). {@link #release} hands the connection to a bounded, named daemon executor, at most
 * {@value #RELEASERS} threads, started on demand and ended when idle; its queue holds every
 * connection of the pool, and a release it cannot take runs on the caller's thread.
 *
 * <p>Created on the first claim: a driver whose tables have no lookups starts no pool for them.
 */
public final class ClaimPool implements AutoCloseable {
  private final String url;
  private final String user;
  private final String password;
  private final int size;
  private final long timeoutMs;
  private final String name;
  private final String display;
  private volatile HikariDataSource pool;
  private boolean closed;
  /** Most threads releasing locks at once (each release is one short round trip). */
  static final int RELEASERS = 2;
  private final ThreadPoolExecutor releaser;

  public ClaimPool(String url, String user, String password, int size, long timeoutMs, String name, String display) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.size = size;
    this.timeoutMs = timeoutMs;
    this.name = name;
    this.display = display;
    this.releaser = releaser(name, size);
  }

  private static ThreadPoolExecutor releaser(String name, int size) {
    AtomicInteger n = new AtomicInteger();
    var executor = new ThreadPoolExecutor(RELEASERS, RELEASERS, 10, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(Math.max(1, size)), r -> {
          Thread t = new Thread(r, "shardex-lookup-unlock-" + name + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, (r, e) -> r.run());
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  /** Releases the connection's value locks (when {@code locked}) and gives it back, on the releasing thread. */
  public void release(Connection c, boolean locked) {
    if (locked) {
      releaser.execute(() -> unlockAndReturn(c, locked, pool));
    } else {
      unlockAndReturn(c, false, pool);
    }
  }

  /**
   * Releases the locks and closes (gives back) the connection; one whose release failed is evicted
   * from {@code owner} (or closed, with none), so that no lock goes back to a pool. Never throws.
   */
  public static void unlockAndReturn(Connection c, boolean locked, HikariDataSource owner) {
    try {
      if (locked) {
        ValueLocks.release(c);
      }
    } catch (SQLException e) {
      if (owner != null) {
        owner.evictConnection(c);
        return;
      }
    }
    try {
      c.close();
    } catch (SQLException e) {
      // the pool evicts it
    }
  }

  /** A connection in autocommit. */
  public Connection connection() throws SQLException {
    HikariDataSource p = pool;
    if (p == null) {
      p = start();
    }
    try {
      return p.getConnection();
    } catch (SQLException e) {
      throw DirectoryUnreachable.named(e, display, password);
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
    config.setAutoCommit(true);
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
    releaser.shutdown(); // the releases queued still run: their connections go back before the pool closes
    try {
      releaser.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (pool != null) {
      pool.close();
    }
  }
}
