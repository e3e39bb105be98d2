package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.ShardexError;
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
public final class ShardSession implements ShardAccess, dev.shardex.driver.events.ClusterEvents.Statements {
  private final Directory directory;
  private final ShardPools pools;
  private final ShardPools.Credentials credentials;
  private final SessionState state = new SessionState();
  private final SessionValues values = new SessionValues();
  private final TreeMap<Integer, Connection> pinned = new TreeMap<>();
  private final Transaction tx;
  private final SessionChanges changes;
  private Metrics metrics = Metrics.none();
  /** Replica reads, for a connection that asks for them (null: every read goes to the primary). */
  private ReplicaReads replicas;
  /** Set by the pipeline around a SELECT that may be answered by a replica (see {@link #replicaEligible}). */
  private boolean replicaRead;
  /** Work that waits for the transaction to commit (lookup entries of deleted rows); dropped on rollback. */
  private final java.util.List<AfterCommit> afterCommit = new java.util.ArrayList<>(0);
  /** The running autocommit statement's writes, held until its lookup claim commits; null when none. */
  private HeldWrites held;
  /** Telemetry: this connection's statement trace (made on first use) and the statement running now, if traced. */
  private dev.shardex.driver.events.StatementTrace trace;
  private volatile dev.shardex.driver.events.StatementTrace running;

  /** Work run once the transaction has committed; its failure leaves the commit as it is. */
  public interface AfterCommit {
    void run() throws SQLException;
  }

  public ShardSession(Directory directory, ShardPools pools, ShardPools.Credentials credentials) {
    this.directory = directory;
    this.pools = pools;
    this.credentials = credentials;
    this.tx = new Transaction(this, directory, pools, pinned);
    this.changes = new SessionChanges(this, state, directory, pools, pinned);
  }

  public void replicaReads(ReplicaReads r) {
    this.replicas = r;
  }

  /** Whether this connection, in its present state, would send a replica-safe read to a replica. */
  public boolean replicaEligible() {
    return replicas != null && replicas.wanted(state);
  }

  /** The pipeline marks the replica-safe SELECT it is about to run (and unmarks it after). */
  public synchronized void replicaRead(boolean on) {
    this.replicaRead = on;
  }

  public void transactionMode(TransactionMode m) {
    tx.mode(m);
  }

  public void metrics(Metrics m) {
    this.metrics = m;
  }

  @Override
  public Metrics metrics() {
    return metrics;
  }

  @Override
  public dev.shardex.driver.events.StatementTrace running() {
    return running;
  }

  @Override
  public void running(dev.shardex.driver.events.StatementTrace t) {
    running = t;
  }

  @Override
  public dev.shardex.driver.events.StatementTrace trace(dev.shardex.driver.events.ClusterEvents events) {
    if (trace == null) {
      trace = new dev.shardex.driver.events.StatementTrace(events, this);
    }
    return trace;
  }

  public SessionState state() {
    return state;
  }

  /** LAST_INSERT_ID(), ROW_COUNT() and FOUND_ROWS() as this logical connection answers them. */
  public SessionValues values() {
    return values;
  }

  /** The shard a transaction runs on, if any: reads that may go anywhere go there. */
  public Integer transactionShard() {
    if (state.autoCommit) {
      return null;
    }
    Integer origin = tx.origin();
    return origin != null ? origin : pinned.isEmpty() ? null : pinned.firstKey();
  }

  @Override
  public void checkScope(List<Integer> shards, boolean write) throws SQLException {
    if (state.autoCommit || shards.isEmpty() || tx.mode() != TransactionMode.SINGLE) {
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
    if (held != null && write && mayPin) {
      ShardLease again = held.held(shardId);
      return again != null ? again : held.lease(shardId, acquireOwn(shardId, true, true));
    }
    return acquireOwn(shardId, write, mayPin);
  }

  /**
   * In autocommit, holds the writes of the statement now running uncommitted on their shards until
   * {@link HeldWrites#commit} (a lookup claim commits first, see {@link HeldWrites}); in a
   * transaction, or inside a statement already held, there is nothing more to hold.
   */
  public HeldWrites holdWrites() {
    if (!state.autoCommit || held != null) {
      return HeldWrites.NONE;
    }
    held = new HeldWrites(this);
    return held;
  }

  synchronized void unhold(HeldWrites h) {
    if (held == h) {
      held = null;
    }
  }

  private ShardLease acquireOwn(int shardId, boolean write, boolean mayPin) throws SQLException {
    Shard shard = directory.shard(shardId);
    if (!shard.status().acceptsReads()) {
      throw ShardexError.SHARD_OFFLINE.exception(shardId, shardId);
    }
    if (write && !shard.status().acceptsWrites()) {
      throw ShardexError.SHARD_READ_ONLY.exception(shardId, shardId);
    }
    if (replicaRead && !write && held == null) {
      ShardLease onReplica = replicas.lease(this, shard, state, pools);
      if (onReplica != null) {
        return onReplica;
      }
    }
    Connection c = pinned.get(shardId);
    if (c != null && mayPin) {
      if (!state.autoCommit && tx.joinsOnUse() && !tx.joined(shardId)) {
        try {
          tx.enlist(shardId, c, state.readOnly);
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
      boolean joins = pin && !state.autoCommit && tx.joinsOnUse();
      if (mayPin) {
        state.applyTo(c, joins);
      } else {
        if (state.catalog != null) {
          c.setCatalog(state.catalog);
        }
        state.applyNetworkTimeout(c);
      }
      if (joins) {
        tx.enlist(shardId, c, state.readOnly);
      }
    } catch (SQLException e) {
      c.close();
      throw translate(shard, e);
    }
    if (pin) {
      pinned.put(shardId, c);
      if (!tx.joinsOnUse()) {
        try {
          tx.replaySavepoints(c);
        } catch (SQLException e) {
          throw translate(shard, e);
        }
      }
    }
    return new ShardLease(this, shard, c, pin);
  }

  void release(Shard shard, Connection c, boolean broken) throws SQLException {
    pools.release(shard, c, broken);
  }

  StatementCache.Statements statements(Connection c) throws SQLException {
    return pools.statements(c);
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
    if (on || !tx.joinsOnUse()) {
      forEachPinned(c -> c.setAutoCommit(on));
    }
    if (on) {
      releaseUnlessSticky();
    }
  }

  /** Isolation, read-only, catalog, network timeout and SET statements: applied to pinned connections and replayed on later ones. */
  public SessionChanges changes() {
    return changes;
  }

  /**
   * A statement has run: its write guards end now in autocommit, or are held until the
   * transaction ends (see {@link Transaction#settle}); its read marks end with its answer.
   */
  public void settle(List<AutoCloseable> guards) {
    tx.settle(guards, state.autoCommit);
  }

  /** As {@link #settle(List)}, with the key marks the route context kept (they stay for the caller's check). */
  public void settle(dev.shardex.directory.placement.KeyMarks marks, List<AutoCloseable> guards) {
    tx.settle(marks, guards, state.autoCommit);
  }

  /** The in-flight marks this transaction holds (its keys stay writable to it while frozen). */
  public java.util.Collection<AutoCloseable> heldGuards() {
    return tx.heldGuards();
  }

  /** SAVEPOINT on every shard the transaction runs on, and on those it pins later. */
  public void savepoint(String name) throws SQLException {
    tx.savepoint(name, state.autoCommit);
  }

  public void rollbackTo(String name) throws SQLException {
    tx.rollbackTo(name, state.autoCommit);
  }

  public void release(String name) throws SQLException {
    tx.release(name, state.autoCommit);
  }

  static void execute(Connection c, String sql) throws SQLException {
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

  /** Whether this session holds a connection of the shard (a transaction's, or a sticky one). */
  public boolean pins(int shardId) {
    return pinned.containsKey(shardId);
  }

  /** Runs the work now in autocommit, else once the transaction commits (never if it rolls back). */
  public void afterCommit(AfterCommit work) throws SQLException {
    if (state.autoCommit) {
      work.run();
    } else {
      afterCommit.add(work);
    }
  }

  private void endTransaction(boolean commit) throws SQLException {
    if (state.autoCommit) {
      return;
    }
    java.util.List<AfterCommit> after = java.util.List.copyOf(afterCommit);
    afterCommit.clear();
    endTransactionOnce(commit);
    for (AfterCommit work : commit ? after : java.util.List.<AfterCommit>of()) {
      try {
        work.run();
      } catch (SQLException e) {
        // an entry left behind is harmless: reads re-check the row, and 'shardex verify' lists it
      }
    }
  }

  private void endTransactionOnce(boolean commit) throws SQLException {
    boolean branched = tx.branched();
    try {
      endTold(commit);
    } finally {
      tx.reset();
      tx.releaseGuards();
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

  /** Ends the transaction on its shards and tells telemetry how it ended and how long the end took. */
  private void endTold(boolean commit) throws SQLException {
    int shards = pinned.size();
    long start = System.nanoTime();
    var how = commit ? dev.shardex.driver.events.TransactionOutcome.COMMITTED
        : dev.shardex.driver.events.TransactionOutcome.ROLLED_BACK;
    SQLException error = null;
    try {
      tx.end(commit);
    } catch (SQLException | RuntimeException e) {
      how = dev.shardex.driver.events.TransactionOutcome.FAILED;
      error = e instanceof SQLException sql ? sql : null;
      throw e;
    } finally {
      metrics.events().transactionEnded(tx.mode(), shards, how, error, System.nanoTime() - start);
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
          pools.release(directory.shard(e.getKey()), e.getValue(), false);
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
    tx.releaseGuards();
    releaseAll();
  }

  /** A physical connection for metadata calls: any readable shard, pooled. */
  public ShardLease anyShard() throws SQLException {
    Integer tx = transactionShard();
    return acquire(tx != null ? tx : directory.anyReadableShard(), false, true);
  }

  interface ConnectionAction {
    void run(Connection c) throws SQLException;
  }

  void forEachPinned(ConnectionAction action) throws SQLException {
    forEach(pinned, action);
  }

  void forEachInTransaction(ConnectionAction action) throws SQLException {
    forEach(tx.inTransaction(), action);
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

  static String joined(List<Integer> shards) {
    StringBuilder s = new StringBuilder();
    shards.forEach(id -> s.append(s.length() == 0 ? "" : ", ").append(id));
    return s.toString();
  }
}
