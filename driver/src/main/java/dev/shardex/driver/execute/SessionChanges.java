package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.catalog.Shard;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * Session changes a logical connection asks for (isolation, read-only, catalog, network timeout,
 * SET statements): recorded in its {@link SessionState}, applied at once to the connections it has
 * pinned, and replayed on every connection it borrows later ({@link SessionState#applyTo}).
 */
public final class SessionChanges {
  private final ShardSession session;
  private final SessionState state;
  private final Directory directory;
  private final ShardPools pools;
  /** The session's pinned connections (shared, not copied). */
  private final Map<Integer, Connection> pinned;

  SessionChanges(ShardSession session, SessionState state, Directory directory, ShardPools pools,
      Map<Integer, Connection> pinned) {
    this.session = session;
    this.state = state;
    this.directory = directory;
    this.pools = pools;
    this.pinned = pinned;
  }

  public void setIsolation(int level) throws SQLException {
    state.isolation = level;
    session.forEachPinned(c -> c.setTransactionIsolation(level));
  }

  public void setReadOnly(boolean on) throws SQLException {
    state.readOnly = on;
    session.forEachPinned(c -> c.setReadOnly(on));
  }

  public void setCatalog(String catalog) throws SQLException {
    state.catalog = catalog;
    session.forEachPinned(c -> c.setCatalog(catalog));
  }

  /** Connection.setNetworkTimeout: applied to the pinned connections and to every one borrowed later. */
  public void setNetworkTimeout(java.util.concurrent.Executor executor, int milliseconds) throws SQLException {
    // Set at once on each shard connection (not through the caller's executor): the next statement must see it.
    java.util.concurrent.Executor now = Runnable::run;
    state.networkTimeout = milliseconds;
    state.networkTimeoutExecutor = now;
    for (Connection c : pinned.values()) {
      try {
        c.setNetworkTimeout(now, milliseconds);
      } catch (SQLException ignored) {
        // a broken shard connection fails its next statement, naming the shard; a pool's timeout
        // check on the logical connection must not call the whole connection dead for it
      }
    }
  }

  /**
   * Runs a SET on every pinned connection, or, when none is pinned, on one readable shard, and
   * records it only once a shard accepted it: a SET the server refuses fails here with the
   * server's own error, instead of being replayed (and failing) on every later connection.
   */
  public void addSet(String sql) throws SQLException {
    if (pinned.isEmpty()) {
      trySet(sql);
    } else {
      session.forEachPinned(c -> ShardSession.execute(c, sql));
    }
    state.sets.add(sql);
  }

  /** In autocommit the shard that accepted the SET keeps its connection pinned (the session is sticky now). */
  private void trySet(String sql) throws SQLException {
    Shard shard = directory.shard(directory.anyReadableShard());
    Connection c = pools.borrow(shard);
    boolean keep = false;
    try {
      state.applyTo(c, true);
      ShardSession.execute(c, sql);
      keep = state.autoCommit;
    } catch (SQLException e) {
      throw session.translate(shard, e);
    } finally {
      if (keep) {
        pinned.put(shard.id(), c);
      } else {
        pools.evict(shard, c);
      }
    }
  }
}
