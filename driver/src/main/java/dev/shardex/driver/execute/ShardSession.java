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
 *
 * <p>This class is the session's face: the lending is {@link ShardLender}'s, the end of a
 * transaction {@link TransactionEnd}'s, the transaction itself {@link Transaction}'s and the
 * session's SET state {@link SessionChanges}'.
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
  private final ShardLender lender;
  private final TransactionEnd ending;
  private Metrics metrics = Metrics.none();
  /** Telemetry: this connection's statement trace (made on first use) and the statement running now, if traced. */
  private dev.shardex.driver.events.StatementTrace trace;
  private volatile dev.shardex.driver.events.StatementTrace running;
  private static final java.lang.invoke.VarHandle RUNNING;

  static {
    try {
      RUNNING = java.lang.invoke.MethodHandles.lookup().findVarHandle(ShardSession.class, "running",
          dev.shardex.driver.events.StatementTrace.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

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
    this.lender = new ShardLender(this, directory, pools, state, pinned, tx);
    this.ending = new TransactionEnd(this, directory, pools, state, pinned, tx);
  }

  /** Replica reads, for a connection that asks for them (see {@link ShardLender}). */
  public void replicaReads(ReplicaReads r) {
    lender.replicaReads(r);
  }

  /** Whether this connection, in its present state, would send a replica-safe read to a replica. */
  public boolean replicaEligible() {
    return lender.replicaEligible();
  }

  @Override
  public ShardLease primary(int shard) throws SQLException {
    return lender.primary(shard);
  }

  /** The transaction ended (read-your-writes counts a committed transaction's writes). */
  void ended(boolean commit) {
    lender.ended(commit);
  }

  /** The pipeline marks the replica-safe SELECT it is about to run (and unmarks it after). */
  public void replicaRead(boolean on) {
    lender.replicaRead(on);
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
    // a release store (no fence): the fan-out threads that read it were handed their tasks after it
    RUNNING.setRelease(this, t);
  }

  @Override
  public dev.shardex.driver.events.StatementTrace trace(dev.shardex.driver.events.ClusterEvents events) {
    if (trace == null) {
      trace = new dev.shardex.driver.events.StatementTrace(events, this);
    }
    return trace;
  }

  @Override
  public dev.shardex.driver.events.StatementTrace traced() {
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

  /** A connection to the shard, lent by this session's {@link ShardLender}. */
  @Override
  public ShardLease acquire(int shardId, boolean write, boolean mayPin) throws SQLException {
    return lender.acquire(shardId, write, mayPin);
  }

  /**
   * In autocommit, holds the writes of the statement now running uncommitted on their shards until
   * {@link HeldWrites#commit} (a lookup claim commits first, see {@link HeldWrites}); in a
   * transaction, or inside a statement already held, there is nothing more to hold.
   */
  public HeldWrites holdWrites() {
    return lender.holdWrites();
  }

  void unhold(HeldWrites h) {
    lender.unhold(h);
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
      ending.releaseUnlessSticky();
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
    ending.end(true);
  }

  public void rollback() throws SQLException {
    ending.end(false);
  }

  /** Whether this session holds a connection of the shard (a transaction's, or a sticky one). */
  public boolean pins(int shardId) {
    return pinned.containsKey(shardId);
  }

  /** Runs the work now in autocommit, else once the transaction commits (never if it rolls back). */
  public void afterCommit(AfterCommit work) throws SQLException {
    ending.afterCommit(work);
  }

  /** Gives every pinned connection back (or evicts it, when it carries SET state). */
  public void releaseAll() throws SQLException {
    ending.releaseAll();
  }

  public void close() throws SQLException {
    if (!state.autoCommit) {
      try {
        ending.end(false);
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
