package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.driver.events.TransactionOutcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How one logical connection's transaction ends: committed or rolled back on its shards (the
 * mode's way, by {@link Transaction#end}), told to telemetry with the time the end took, the work
 * that waited for the commit run after it (never after a rollback), and the pinned connections
 * given back to their pools, or evicted when they carry SET state a pool cannot undo.
 */
final class TransactionEnd {
  private final Directory directory;
  private final ShardPools pools;
  private final SessionState state;
  private final Map<Integer, Connection> pinned;
  private final Transaction tx;
  private final ShardSession session;
  /** Work that waits for the transaction to commit (lookup entries of deleted rows); dropped on rollback. */
  private final List<ShardSession.AfterCommit> afterCommit = new ArrayList<>(0);

  TransactionEnd(ShardSession session, Directory directory, ShardPools pools, SessionState state,
      Map<Integer, Connection> pinned, Transaction tx) {
    this.session = session;
    this.directory = directory;
    this.pools = pools;
    this.state = state;
    this.pinned = pinned;
    this.tx = tx;
  }

  /** Runs the work now in autocommit, else once the transaction commits (never if it rolls back). */
  void afterCommit(ShardSession.AfterCommit work) throws SQLException {
    if (state.autoCommit) {
      work.run();
    } else {
      afterCommit.add(work);
    }
  }

  void end(boolean commit) throws SQLException {
    if (state.autoCommit) {
      return;
    }
    List<ShardSession.AfterCommit> after = List.copyOf(afterCommit);
    afterCommit.clear();
    endOnce(commit);
    for (ShardSession.AfterCommit work : commit ? after : List.<ShardSession.AfterCommit>of()) {
      try {
        work.run();
      } catch (SQLException e) {
        // an entry left behind is harmless: reads re-check the row, and 'shardex verify' lists it
      }
    }
  }

  private void endOnce(boolean commit) throws SQLException {
    boolean branched = tx.branched();
    try {
      endTold(commit);
    } finally {
      session.ended(commit); // before the connections go: their last OK packets carry the commits' GTIDs
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
    var how = commit ? TransactionOutcome.COMMITTED : TransactionOutcome.ROLLED_BACK;
    SQLException error = null;
    try {
      tx.end(commit);
    } catch (SQLException | RuntimeException e) {
      how = TransactionOutcome.FAILED;
      error = e instanceof SQLException sql ? sql : null;
      throw e;
    } finally {
      session.metrics().events().transactionEnded(tx.mode(), shards, how, error, System.nanoTime() - start);
    }
  }

  void releaseUnlessSticky() throws SQLException {
    if (!state.sticky()) {
      releaseAll();
    }
  }

  /** Gives every pinned connection back (or evicts it, when it carries SET state). */
  void releaseAll() throws SQLException {
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
}
