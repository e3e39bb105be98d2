package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.Shard;
import dev.shardex.directory.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The physical side of one logical connection.
 *
 * <p>Autocommit: each statement borrows a connection from the shard's pool and gives it back when
 * its result is consumed. Transaction (autocommit off): the first statement on a shard pins that
 * shard's connection until commit or rollback; in mode {@code single} a second shard is refused
 * before anything runs there. Sticky session: once the application sends a SET, every connection
 * it uses carries that state, so connections are pinned too and, because a pool cannot undo a SET,
 * evicted rather than pooled when the logical connection lets them go.
 */
public final class ShardSession implements ShardAccess {
  private final Directory directory;
  private final ShardPools pools;
  private final ShardPools.Credentials credentials;
  private final SessionState state = new SessionState();
  private final TreeMap<Integer, Connection> pinned = new TreeMap<>();
  private Metrics metrics = Metrics.none();
  /** Savepoints of the running transaction, in order: replayed on a shard the transaction pins later. */
  private final List<String> savepoints = new ArrayList<>();
  private TransactionMode mode = TransactionMode.SINGLE;
  private String gtrid;
  private long transactions;
  /** In-flight marks of keys this transaction wrote: held until it commits or rolls back. */
  private final List<AutoCloseable> heldGuards = new ArrayList<>();

  public ShardSession(Directory directory, ShardPools pools, ShardPools.Credentials credentials) {
    this.directory = directory;
    this.pools = pools;
    this.credentials = credentials;
  }

  public void transactionMode(TransactionMode m) {
    this.mode = m;
  }

  public void metrics(Metrics m) {
    this.metrics = m;
  }

  public Metrics metrics() {
    return metrics;
  }

  public SessionState state() {
    return state;
  }

  /** The shard a transaction runs on, if any: reads that may go anywhere go there. */
  public Integer transactionShard() {
    return !state.autoCommit && !pinned.isEmpty() ? pinned.firstKey() : null;
  }

  @Override
  public void checkScope(List<Integer> shards, boolean write) throws SQLException {
    if (state.autoCommit || shards.isEmpty() || mode != TransactionMode.SINGLE) {
      return;
    }
    Integer current = pinned.isEmpty() ? null : pinned.firstKey();
    for (int s : shards) {
      if (current == null) {
        current = s;
      } else if (s != current) {
        throw ShardexError.SECOND_SHARD.exception(current, shards.size() > 1 ? joined(shards) : Integer.toString(s));
      }
    }
  }

  @Override
  public synchronized ShardLease acquire(int shardId, boolean write, boolean mayPin) throws SQLException {
    Shard shard = directory.shard(shardId);
    if (!shard.status().acceptsReads()) {
      throw ShardexError.SHARD_OFFLINE.exception(shardId, shardId);
    }
    if (write && !shard.status().acceptsWrites()) {
      throw ShardexError.SHARD_READ_ONLY.exception(shardId, shardId);
    }
    Connection c = pinned.get(shardId);
    if (c != null && mayPin) {
      return new ShardLease(this, shard, c, true);
    }
    boolean pin = mayPin && (!state.autoCommit || state.sticky());
    if (pin) {
      checkScope(List.of(shardId), write);
    }
    c = pools.borrow(shard);
    if (write) {
      try {
        // waiting for a connection may have outlasted the lease a move counts on: check it again
        directory.lease().check();
      } catch (SQLException e) {
        c.close();
        throw e;
      }
    }
    try {
      if (networkTimeoutMs > 0) {
        c.setNetworkTimeout(Runnable::run, networkTimeoutMs);
      }
      boolean xa = pin && !state.autoCommit && mode == TransactionMode.XA;
      if (mayPin) {
        state.applyTo(c, xa);
      } else if (state.catalog != null) {
        c.setCatalog(state.catalog);
      }
      if (xa) {
        if (gtrid == null) {
          gtrid = XaCoordinator.gtrid(directory.clientId(), ++transactions);
        }
        XaCoordinator.start(c, gtrid, shardId);
      }
    } catch (SQLException e) {
      c.close();
      throw translate(shard, e);
    }
    if (pin) {
      pinned.put(shardId, c);
      try {
        for (String name : savepoints) {
          execute(c, "SAVEPOINT `" + name + "`");
        }
      } catch (SQLException e) {
        throw translate(shard, e);
      }
    }
    return new ShardLease(this, shard, c, pin);
  }

  SQLException translate(Shard shard, SQLException e) {
    return ShardErrors.translate(shard, e, credentials.password(shard.id()));
  }

  // ---- session changes, replayed on the connections already pinned --------------------------------

  public void setAutoCommit(boolean on) throws SQLException {
    if (on == state.autoCommit) {
      return;
    }
    if (on) {
      commit(); // JDBC: switching autocommit on commits the running transaction
    }
    state.autoCommit = on;
    forEachPinned(c -> c.setAutoCommit(on));
    if (on) {
      releaseUnlessSticky();
    }
  }

  public void setIsolation(int level) throws SQLException {
    state.isolation = level;
    forEachPinned(c -> c.setTransactionIsolation(level));
  }

  public void setReadOnly(boolean on) throws SQLException {
    state.readOnly = on;
    forEachPinned(c -> c.setReadOnly(on));
  }

  private int networkTimeoutMs;

  /**
   * Connection.setNetworkTimeout: every physical connection this session uses gets it (the pool
   * resets it on return). Set synchronously: Connector/J's setter runs on the executor under the
   * connection's lock, so on the caller's executor it could land after the query it should bound.
   */
  public void setNetworkTimeout(int ms) throws SQLException {
    networkTimeoutMs = ms;
    forEachPinned(c -> c.setNetworkTimeout(Runnable::run, ms));
  }

  public int networkTimeout() {
    return networkTimeoutMs;
  }

  public void setCatalog(String catalog) throws SQLException {
    state.catalog = catalog;
    forEachPinned(c -> c.setCatalog(catalog));
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
      forEachPinned(c -> execute(c, sql));
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
      execute(c, sql);
      keep = state.autoCommit;
    } catch (SQLException e) {
      throw translate(shard, e);
    } finally {
      if (keep) {
        pinned.put(shard.id(), c);
      } else {
        pools.evict(shard, c);
      }
    }
  }

  /**
   * A write has run: its keys stop being in flight now in autocommit, or when the transaction
   * ends (a mover must not copy a key while an uncommitted write to it may still commit).
   */
  public void settle(List<AutoCloseable> guards) {
    if (guards.isEmpty()) {
      return;
    }
    if (state.autoCommit) {
      Directory.release(guards);
    } else {
      heldGuards.addAll(guards);
    }
  }

  /** The in-flight marks this transaction holds (its keys stay writable to it while frozen). */
  public java.util.Collection<AutoCloseable> heldGuards() {
    return heldGuards;
  }

  private void releaseGuards() {
    Directory.release(heldGuards);
    heldGuards.clear();
  }

  /** SAVEPOINT on every shard the transaction runs on, and on those it pins later. */
  public void savepoint(String name) throws SQLException {
    requireTransaction("setSavepoint");
    forEachPinned(c -> execute(c, "SAVEPOINT `" + name + "`"));
    savepoints.add(name);
  }

  public void rollbackTo(String name) throws SQLException {
    requireSavepoint(name);
    forEachPinned(c -> execute(c, "ROLLBACK TO SAVEPOINT `" + name + "`"));
    savepoints.subList(savepoints.indexOf(name) + 1, savepoints.size()).clear();
  }

  public void release(String name) throws SQLException {
    requireSavepoint(name);
    forEachPinned(c -> execute(c, "RELEASE SAVEPOINT `" + name + "`"));
    savepoints.subList(savepoints.indexOf(name), savepoints.size()).clear();
  }

  private void requireTransaction(String what) throws SQLException {
    if (state.autoCommit) {
      throw new SQLException("Shardex: " + what + " needs a transaction: call setAutoCommit(false) first", "3B001");
    }
  }

  private void requireSavepoint(String name) throws SQLException {
    requireTransaction("a savepoint");
    if (!savepoints.contains(name)) {
      throw new SQLException("Shardex: savepoint " + name + " does not exist in this transaction", "3B001");
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  public void commit() throws SQLException {
    endTransaction(true);
  }

  public void rollback() throws SQLException {
    endTransaction(false);
  }

  private void endTransaction(boolean commit) throws SQLException {
    if (state.autoCommit) {
      return;
    }
    try {
      if (mode == TransactionMode.XA && gtrid != null) {
        String id = gtrid;
        gtrid = null;
        XaCoordinator.finish(pinned, id, commit, new dev.shardex.directory.XaLog(directory.store()), directory.clientId());
      } else if (mode == TransactionMode.BEST_EFFORT && commit && pinned.size() > 1) {
        commitEach();
      } else {
        forEachPinned(c -> {
          if (commit) {
            c.commit();
          } else {
            c.rollback();
          }
        });
      }
    } finally {
      releaseGuards();
      savepoints.clear();
      if (mode == TransactionMode.XA) {
        releaseAll(); // an XA branch's connection is done with once the branch ended
      }
    }
    releaseUnlessSticky();
  }

  /** best_effort: commit shard by shard; if any fails, name the shards that committed and those that did not. */
  private void commitEach() throws SQLException {
    List<Integer> committed = new ArrayList<>();
    List<Integer> failed = new ArrayList<>();
    SQLException first = null;
    for (Map.Entry<Integer, Connection> e : pinned.entrySet()) {
      try {
        e.getValue().commit();
        committed.add(e.getKey());
      } catch (SQLException ex) {
        failed.add(e.getKey());
        first = first == null ? translate(directory.shard(e.getKey()), ex) : first;
        try {
          e.getValue().rollback();
        } catch (SQLException ignored) {
          // a shard that could not commit has rolled back or is gone
        }
      }
    }
    if (first != null) {
      throw ShardexError.BEST_EFFORT_PARTIAL.withCause(first, joined(committed), joined(failed), first.getMessage());
    }
  }

  private void releaseUnlessSticky() throws SQLException {
    if (!state.sticky()) {
      releaseAll();
    }
  }

  /** Gives every pinned connection back (or evicts it, when it carries SET state). */
  public void releaseAll() throws SQLException {
    SQLException first = null;
    for (Map.Entry<Integer, Connection> e : pinned.entrySet()) {
      try {
        if (state.sticky()) {
          pools.evict(directory.shard(e.getKey()), e.getValue());
        } else {
          e.getValue().close();
        }
      } catch (SQLException ex) {
        first = first == null ? ex : first;
      }
    }
    pinned.clear();
    if (first != null) {
      throw first;
    }
  }

  public void close() throws SQLException {
    if (!state.autoCommit) {
      try {
        if (mode == TransactionMode.XA && gtrid != null) {
          String id = gtrid;
          gtrid = null;
          XaCoordinator.finish(pinned, id, false, null, directory.clientId());
        } else {
          forEachPinned(Connection::rollback);
        }
      } catch (SQLException ignored) {
        // closing without commit rolls back; a dead shard has rolled back already
      }
    }
    releaseGuards();
    releaseAll();
  }

  /** A physical connection for metadata calls: any readable shard, pooled. */
  public ShardLease anyShard() throws SQLException {
    Integer tx = transactionShard();
    return acquire(tx != null ? tx : directory.anyReadableShard(), false, true);
  }

  private interface ConnectionAction {
    void run(Connection c) throws SQLException;
  }

  private void forEachPinned(ConnectionAction action) throws SQLException {
    List<SQLException> errors = new ArrayList<>();
    for (Map.Entry<Integer, Connection> e : pinned.entrySet()) {
      try {
        action.run(e.getValue());
      } catch (SQLException ex) {
        errors.add(translate(directory.shard(e.getKey()), ex));
      }
    }
    if (!errors.isEmpty()) {
      SQLException first = errors.get(0);
      errors.stream().skip(1).forEach(first::setNextException);
      throw first;
    }
  }

  private static String joined(List<Integer> shards) {
    StringBuilder s = new StringBuilder();
    shards.forEach(id -> s.append(s.length() == 0 ? "" : ", ").append(id));
    return s.toString();
  }
}
