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
  private TransactionMode mode = TransactionMode.ATOMIC;
  /** xa and atomic: the shards the running transaction has joined (a sticky pinned connection joins on first use). */
  private final java.util.Set<Integer> enlisted = new java.util.HashSet<>();
  /** atomic: the shard whose local transaction carries the commit record (the first one joined). */
  private Integer origin;
  /** xa and atomic: the shards that run an XA branch. */
  private final java.util.Set<Integer> xaBranches = new java.util.HashSet<>();
  private String gtrid;
  /** Numbers the gtrids of this JVM: with the driver instance's unique id they never repeat. */
  private static final java.util.concurrent.atomic.AtomicLong TRANSACTIONS = new java.util.concurrent.atomic.AtomicLong();
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
    if (state.autoCommit) {
      return null;
    }
    return origin != null ? origin : pinned.isEmpty() ? null : pinned.firstKey();
  }

  /** xa and atomic open a shard's part of the transaction when it is first used, not when it is pinned. */
  private boolean joinsOnUse() {
    return mode == TransactionMode.XA || mode == TransactionMode.ATOMIC;
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
      if (!state.autoCommit && joinsOnUse() && !enlisted.contains(shardId)) {
        try {
          enlist(shardId, c);
        } catch (SQLException e) {
          throw translate(shard, e);
        }
      }
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
      boolean joins = pin && !state.autoCommit && joinsOnUse();
      if (mayPin) {
        state.applyTo(c, joins);
      } else {
        if (state.catalog != null) {
          c.setCatalog(state.catalog);
        }
        state.applyNetworkTimeout(c);
      }
      if (joins) {
        enlist(shardId, c);
      }
    } catch (SQLException e) {
      c.close();
      throw translate(shard, e);
    }
    if (pin) {
      pinned.put(shardId, c);
      if (!joinsOnUse()) {
        try {
          replaySavepoints(c);
        } catch (SQLException e) {
          throw translate(shard, e);
        }
      }
    }
    return new ShardLease(this, shard, c, pin);
  }

  /**
   * Joins a shard to the running transaction (xa, atomic): in atomic the first shard runs a
   * plain local transaction, exactly as in single; every other shard starts an XA branch.
   */
  private void enlist(int shardId, Connection c) throws SQLException {
    if (mode == TransactionMode.ATOMIC && (origin == null || state.readOnly)) {
      // the origin; or, in a read-only transaction, any shard: with nothing to commit, no XA is needed
      if (c.getAutoCommit()) {
        c.setAutoCommit(false);
      }
      origin = origin == null ? shardId : origin;
    } else {
      if (gtrid == null) {
        gtrid = mode == TransactionMode.XA
            ? XaCoordinator.gtrid(directory.clientId(), TRANSACTIONS.incrementAndGet())
            : AtomicCommit.gtrid(origin, AtomicCommit.connectionId(pinned.get(origin)), directory.clientId(),
                TRANSACTIONS.incrementAndGet());
      }
      if (mode == TransactionMode.ATOMIC) {
        CommitRecords.ensure(pools, directory.shard(origin));
      }
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true); // XA START opens the branch; autocommit is ignored inside it
      }
      XaCoordinator.start(c, gtrid, shardId);
      xaBranches.add(shardId);
    }
    enlisted.add(shardId);
    replaySavepoints(c);
  }

  private void replaySavepoints(Connection c) throws SQLException {
    for (String name : savepoints) {
      execute(c, "SAVEPOINT `" + name + "`");
    }
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
    if (on || !joinsOnUse()) {
      forEachPinned(c -> c.setAutoCommit(on));
    }
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

  public void setCatalog(String catalog) throws SQLException {
    state.catalog = catalog;
    forEachPinned(c -> c.setCatalog(catalog));
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
      heldGuards.addAll(dev.shardex.directory.ReadMarks.release(guards)); // a read's ticket ends with its answer
    }
  }

  /**
   * As {@link #settle(List)}, for a statement whose key marks its route context kept: its writes
   * end now in autocommit, or are held (as guards) until the transaction ends; its read marks stay
   * for the caller's {@link dev.shardex.directory.KeyMarks#current} check.
   */
  public void settle(dev.shardex.directory.KeyMarks marks, List<AutoCloseable> guards) {
    if (marks.hasWrites()) {
      if (state.autoCommit) {
        marks.releaseWrites();
      } else {
        marks.moveWritesTo(heldGuards);
      }
    }
    settle(guards);
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
    forEachInTransaction(c -> execute(c, "SAVEPOINT `" + name + "`"));
    savepoints.add(name);
  }

  public void rollbackTo(String name) throws SQLException {
    requireSavepoint(name);
    forEachInTransaction(c -> execute(c, "ROLLBACK TO SAVEPOINT `" + name + "`"));
    savepoints.subList(savepoints.indexOf(name) + 1, savepoints.size()).clear();
  }

  public void release(String name) throws SQLException {
    requireSavepoint(name);
    forEachInTransaction(c -> execute(c, "RELEASE SAVEPOINT `" + name + "`"));
    savepoints.subList(savepoints.indexOf(name), savepoints.size()).clear();
  }

  private void requireTransaction(String what) throws SQLException {
    if (state.autoCommit) {
      throw ShardexError.NEEDS_TRANSACTION.exception(what);
    }
  }

  private void requireSavepoint(String name) throws SQLException {
    requireTransaction("a savepoint");
    if (!savepoints.contains(name)) {
      throw ShardexError.NO_SUCH_SAVEPOINT.exception(name);
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
    boolean branched = gtrid != null;
    try {
      if (mode == TransactionMode.ATOMIC) {
        endAtomic(commit);
      } else if (mode == TransactionMode.XA) {
        if (gtrid != null) {
          XaCoordinator.finish(inTransaction(), gtrid, commit, new dev.shardex.directory.XaLog(directory.store()),
              directory.clientId());
        }
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
      gtrid = null;
      origin = null;
      enlisted.clear();
      xaBranches.clear();
      releaseGuards();
      savepoints.clear();
      if (branched) {
        try {
          releaseAll(); // an XA branch's connection is done with once the branch ended
        } catch (SQLException e) {
          // a connection that broke during the commit is evicted by its pool: the outcome stands
        }
      }
    }
    releaseUnlessSticky();
  }

  /** atomic: one shard commits locally; more run the commit protocol of {@link AtomicCommit}. */
  private void endAtomic(boolean commit) throws SQLException {
    if (origin == null) {
      return;
    }
    Map<Integer, Connection> branches = inTransaction();
    branches.keySet().retainAll(xaBranches);
    if (branches.isEmpty()) { // one shard, or a read-only transaction: local transactions only
      forEachInTransaction(c -> {
        if (commit) {
          c.commit();
        } else {
          c.rollback();
        }
      });
      return;
    }
    Connection local = pinned.get(origin);
    try {
      if (commit) {
        AtomicCommit.commit(origin, local, branches, gtrid, pools, directory.shard(origin));
      } else {
        AtomicCommit.rollback(local, branches, gtrid);
      }
    } finally {
      // shards joined while the transaction was read-only hold nothing to commit: end them
      Map<Integer, Connection> readOnly = inTransaction();
      readOnly.keySet().removeAll(xaBranches);
      readOnly.remove(origin);
      readOnly.values().forEach(c -> {
        try {
          c.rollback();
        } catch (SQLException e) {
          // nothing was written there
        }
      });
    }
  }

  /** The pinned connections of the shards the running transaction has joined. */
  private Map<Integer, Connection> inTransaction() {
    Map<Integer, Connection> out = new TreeMap<>(pinned);
    if (joinsOnUse()) {
      out.keySet().retainAll(enlisted);
    }
    return out;
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
        endTransaction(false);
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
    forEach(pinned, action);
  }

  private void forEachInTransaction(ConnectionAction action) throws SQLException {
    forEach(inTransaction(), action);
  }

  private void forEach(Map<Integer, Connection> connections, ConnectionAction action) throws SQLException {
    List<SQLException> errors = new ArrayList<>();
    for (Map.Entry<Integer, Connection> e : connections.entrySet()) {
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
