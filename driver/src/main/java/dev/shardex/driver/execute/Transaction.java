package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The running transaction of one logical connection, by mode: which shards it has joined, which
 * shard's local transaction carries an atomic commit's record, the XA branches and their gtrid,
 * the savepoints to replay on a shard joined later, and how it ends (commit or rollback on every
 * shard it touched). The connections themselves are the session's ({@link ShardSession}).
 */
final class Transaction {
  private final ShardSession session;
  private final Directory directory;
  private final ShardPools pools;
  /** The session's pinned connections (shared, not copied). */
  private final Map<Integer, Connection> pinned;
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
  /** In-flight marks of keys this transaction wrote: held until it commits or rolls back. */
  private final List<AutoCloseable> heldGuards = new ArrayList<>();
  /** Numbers the gtrids of this JVM: with the driver instance's unique id they never repeat. */
  private static final java.util.concurrent.atomic.AtomicLong TRANSACTIONS = new java.util.concurrent.atomic.AtomicLong();

  Transaction(ShardSession session, Directory directory, ShardPools pools, Map<Integer, Connection> pinned) {
    this.session = session;
    this.directory = directory;
    this.pools = pools;
    this.pinned = pinned;
  }

  void mode(TransactionMode m) {
    this.mode = m;
  }

  TransactionMode mode() {
    return mode;
  }

  /** atomic: the shard whose local transaction carries the commit record, once one is joined. */
  Integer origin() {
    return origin;
  }

  boolean joined(int shard) {
    return enlisted.contains(shard);
  }

  boolean branched() {
    return gtrid != null;
  }

  List<String> savepoints() {
    return savepoints;
  }

  /** xa and atomic open a shard's part of the transaction when it is first used, not when it is pinned. */
  boolean joinsOnUse() {
    return mode == TransactionMode.XA || mode == TransactionMode.ATOMIC;
  }

  /**
   * Joins a shard to the running transaction (xa, atomic): in atomic the first shard runs a
   * plain local transaction, exactly as in single; every other shard starts an XA branch.
   */
  void enlist(int shardId, Connection c, boolean readOnly) throws SQLException {
    if (mode == TransactionMode.ATOMIC && (origin == null || readOnly)) {
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

  void replaySavepoints(Connection c) throws SQLException {
    for (String name : savepoints) {
      ShardSession.execute(c, "SAVEPOINT `" + name + "`");
    }
  }

  /**
   * A write has run: its keys stop being in flight now in autocommit, or when the transaction
   * ends (a mover must not copy a key while an uncommitted write to it may still commit).
   */
  void settle(List<AutoCloseable> guards, boolean autoCommit) {
    if (guards.isEmpty()) {
      return;
    }
    if (autoCommit) {
      Directory.release(guards);
    } else {
      heldGuards.addAll(dev.shardex.directory.placement.ReadMarks.release(guards)); // a read's ticket ends with its answer
    }
  }

  /**
   * As {@link #settle(List, boolean)}, for a statement whose key marks its route context kept: its writes
   * end now in autocommit, or are held (as guards) until the transaction ends; its read marks stay
   * for the caller's {@link dev.shardex.directory.placement.KeyMarks#current} check.
   */
  void settle(dev.shardex.directory.placement.KeyMarks marks, List<AutoCloseable> guards, boolean autoCommit) {
    if (marks.hasWrites()) {
      if (autoCommit) {
        marks.releaseWrites();
      } else {
        marks.moveWritesTo(heldGuards);
      }
    }
    settle(guards, autoCommit);
  }

  /** The in-flight marks this transaction holds (its keys stay writable to it while frozen). */
  java.util.Collection<AutoCloseable> heldGuards() {
    return heldGuards;
  }

  void releaseGuards() {
    Directory.release(heldGuards);
    heldGuards.clear();
  }

  /** SAVEPOINT on every shard the transaction runs on; replayed on those it joins later. */
  void savepoint(String name, boolean autoCommit) throws SQLException {
    requireTransaction("setSavepoint", autoCommit);
    session.forEachInTransaction(c -> ShardSession.execute(c, "SAVEPOINT `" + name + "`"));
    savepoints.add(name);
  }

  void rollbackTo(String name, boolean autoCommit) throws SQLException {
    requireSavepoint(name, autoCommit);
    session.forEachInTransaction(c -> ShardSession.execute(c, "ROLLBACK TO SAVEPOINT `" + name + "`"));
    savepoints.subList(savepoints.indexOf(name) + 1, savepoints.size()).clear();
  }

  void release(String name, boolean autoCommit) throws SQLException {
    requireSavepoint(name, autoCommit);
    session.forEachInTransaction(c -> ShardSession.execute(c, "RELEASE SAVEPOINT `" + name + "`"));
    savepoints.subList(savepoints.indexOf(name), savepoints.size()).clear();
  }

  private static void requireTransaction(String what, boolean autoCommit) throws SQLException {
    if (autoCommit) {
      throw ShardexError.NEEDS_TRANSACTION.exception(what);
    }
  }

  private void requireSavepoint(String name, boolean autoCommit) throws SQLException {
    requireTransaction("a savepoint", autoCommit);
    if (!savepoints.contains(name)) {
      throw ShardexError.NO_SUCH_SAVEPOINT.exception(name);
    }
  }

  /** Commits or rolls back on every shard the transaction touched, as its mode says. */
  void end(boolean commit) throws SQLException {
    if (mode == TransactionMode.ATOMIC) {
      endAtomic(commit);
    } else if (mode == TransactionMode.XA) {
      if (gtrid != null) {
        XaCoordinator.finish(inTransaction(), gtrid, commit, new dev.shardex.directory.xa.XaLog(directory.store()),
            directory.clientId());
      }
    } else if (mode == TransactionMode.BEST_EFFORT && commit && pinned.size() > 1) {
      commitEach();
    } else {
      session.forEachPinned(c -> {
        if (commit) {
          c.commit();
        } else {
          c.rollback();
        }
      });
    }
  }

  /** Forgets the ended transaction. */
  void reset() {
    gtrid = null;
    origin = null;
    enlisted.clear();
    xaBranches.clear();
    savepoints.clear();
  }

  /** atomic: one shard commits locally; more run the commit protocol of {@link AtomicCommit}. */
  private void endAtomic(boolean commit) throws SQLException {
    if (origin == null) {
      return;
    }
    Map<Integer, Connection> branches = inTransaction();
    branches.keySet().retainAll(xaBranches);
    if (branches.isEmpty()) { // one shard, or a read-only transaction: local transactions only
      session.forEachInTransaction(c -> {
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
  Map<Integer, Connection> inTransaction() {
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
        first = first == null ? session.translate(directory.shard(e.getKey()), ex) : first;
        try {
          e.getValue().rollback();
        } catch (SQLException ignored) {
          // a shard that could not commit has rolled back or is gone
        }
      }
    }
    if (first != null) {
      throw ShardexError.BEST_EFFORT_PARTIAL.withCause(first, ShardSession.joined(committed), ShardSession.joined(failed), first.getMessage());
    }
  }
}
