package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Lends one logical connection's physical connections ({@link ShardLease}). In autocommit a
 * statement borrows from the shard's pool and gives back when its result is consumed; in a
 * transaction, or once the session is sticky (a SET), the first use of a shard pins its
 * connection to the session and later statements get that one again (joining the transaction
 * first when the mode enlists shards on use). A write checks the directory lease again after
 * waiting for a pool, since the wait may have outlasted it. While an autocommit statement's
 * writes are held ({@link HeldWrites}), its writes go to the held connections.
 */
final class ShardLender {
  private final ShardSession session;
  private final Directory directory;
  private final ShardPools pools;
  private final SessionState state;
  private final Map<Integer, Connection> pinned;
  private final Transaction tx;
  /** The running autocommit statement's writes, held until its lookup claim commits; null when none. */
  private HeldWrites held;
  /** Replica reads, for a connection that asks for them (null: every read goes to the primary). */
  private ReplicaReads replicas;
  /** Set by the pipeline around a SELECT that may be answered by a replica ({@code ReplicaSafe}). */
  private boolean replicaRead;

  ShardLender(ShardSession session, Directory directory, ShardPools pools, SessionState state,
      Map<Integer, Connection> pinned, Transaction tx) {
    this.session = session;
    this.directory = directory;
    this.pools = pools;
    this.state = state;
    this.pinned = pinned;
    this.tx = tx;
  }

  synchronized ShardLease acquire(int shardId, boolean write, boolean mayPin) throws SQLException {
    if (held != null && write && mayPin) {
      ShardLease again = held.held(shardId);
      return again != null ? again : held.lease(shardId, acquireOwn(shardId, true, true, false));
    }
    return acquireOwn(shardId, write, mayPin, true);
  }

  /** A read's connection to the shard's primary: a replica's read that did not catch up, or failed, runs again here. */
  synchronized ShardLease primary(int shardId) throws SQLException {
    return acquireOwn(shardId, false, true, false);
  }

  /** The transaction ended: read-your-writes counts its writes once it committed. */
  void ended(boolean commit) {
    if (replicas != null && replicas.tracksWrites()) {
      replicas.ended(commit, pinned);
    }
  }

  void replicaReads(ReplicaReads r) {
    this.replicas = r;
  }

  boolean replicaEligible() {
    return replicas != null && replicas.wanted(state);
  }

  synchronized void replicaRead(boolean on) {
    this.replicaRead = on;
  }

  /** See {@link ShardSession#holdWrites}. */
  HeldWrites holdWrites() {
    if (!state.autoCommit || held != null) {
      return HeldWrites.NONE;
    }
    held = new HeldWrites(session);
    return held;
  }

  synchronized void unhold(HeldWrites h) {
    if (held == h) {
      held = null;
    }
  }

  private ShardLease acquireOwn(int shardId, boolean write, boolean mayPin, boolean replicaOk) throws SQLException {
    Shard shard = directory.shard(shardId);
    if (!shard.status().acceptsReads()) {
      throw ShardexError.SHARD_OFFLINE.exception(shardId, shardId);
    }
    if (write && !shard.status().acceptsWrites()) {
      throw ShardexError.SHARD_READ_ONLY.exception(shardId, shardId);
    }
    if (replicaRead && replicaOk && !write && held == null) {
      ShardLease onReplica = replicas.lease(session, shard, state, pools);
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
          throw session.translate(shard, e);
        }
      }
      if (write && replicas != null && replicas.tracksWrites()) {
        replicas.writing(shardId); // remembered if the transaction commits
      }
      return new ShardLease(session, shard, c, true);
    }
    boolean pin = mayPin && (!state.autoCommit || state.sticky());
    if (pin) {
      session.checkScope(List.of(shardId), write);
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
    prepare(shard, c, pin, mayPin);
    if (pin) {
      pin(shard, c);
    }
    ShardLease lease = new ShardLease(session, shard, c, pin);
    if (write && replicas != null && replicas.tracksWrites()) {
      if (pin) {
        replicas.writing(shardId);
      } else {
        lease.tracks(replicas); // its GTID is read when the lease closes
      }
    }
    return lease;
  }

  /** Gives a freshly borrowed connection the session's state (and the transaction, when it joins on use). */
  private void prepare(Shard shard, Connection c, boolean pin, boolean mayPin) throws SQLException {
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
        tx.enlist(shard.id(), c, state.readOnly);
      }
    } catch (SQLException e) {
      c.close();
      throw session.translate(shard, e);
    }
  }

  private void pin(Shard shard, Connection c) throws SQLException {
    pinned.put(shard.id(), c);
    if (!tx.joinsOnUse()) {
      try {
        tx.replaySavepoints(c);
      } catch (SQLException e) {
        throw session.translate(shard, e);
      }
    }
  }
}
