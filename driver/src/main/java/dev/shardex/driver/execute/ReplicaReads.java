package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.catalog.Replica;
import dev.shardex.directory.catalog.Shard;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One logical connection's replica reads: which replica of a shard it reads from (a weighted choice,
 * kept while that replica stays healthy, so one connection does not hop between replicas of different
 * lag), what a read there must first wait for (this connection's own writes, {@link Writes}), and the
 * fallback to the primary, counted. Only made for connections that ask for replica
 * reads ({@code shardex.readTarget=replica_preferred}, or {@code shardex.readOnlyTarget=replica} while
 * {@code setReadOnly(true)}); every other connection has none and its reads never look here.
 */
public final class ReplicaReads {
  /**
   * What a connection asked for: replica reads always ({@code readTarget}), else only while read-only;
   * the lag bound; how long a replica read may wait for this connection's write (0: it does not wait,
   * {@code shardex.readYourWrites=false}).
   */
  public record Ask(boolean always, long maxLagMs, long causalWaitMs) {}

  private final Ask ask;
  private final Directory directory;
  private final Supplier<ReplicaHealth> health;
  private final Map<Integer, Integer> chosen = new HashMap<>();
  /** Read-your-writes: this connection's writes, by shard; null when its replica reads do not wait for them. */
  private final Writes writes;

  public ReplicaReads(Ask ask, Directory directory, Supplier<ReplicaHealth> health) {
    this.ask = ask;
    this.directory = directory;
    this.health = health;
    this.writes = ask.causalWaitMs() > 0 ? new Writes(ask.causalWaitMs()) : null;
  }

  /** Whether this connection's writes must be remembered (it reads replicas and its own writes). */
  boolean tracksWrites() {
    return writes != null;
  }

  /** An autocommit write's lease on the shard closed: its GTID (from the connection's last OK packet) and time. */
  void wrote(int shard, Connection c) {
    if (!directory.replicas(shard).isEmpty()) {
      writes.wrote(shard, WriteGtid.last(c));
    }
  }

  /** A transaction wrote on the shard: remembered when it commits. */
  void writing(int shard) {
    writes.writing(shard);
  }

  /** The transaction ended: on commit its shards' writes count, from each pinned connection's last OK packet (its COMMIT). */
  void ended(boolean commit, Map<Integer, Connection> pinned) {
    writes.ended(commit, pinned, this);
  }

  /** Whether reads in the session's present state may go to a replica at all: autocommit, no SET state, asked for. */
  boolean wanted(SessionState state) {
    return state.autoCommit && !state.sticky() && (ask.always() || state.readOnly) && directory.hasReplicas();
  }

  /** The shard as seen through one of its replicas: same id and status, the replica's URL (errors name it). */
  static Shard view(Shard shard, Replica r) {
    return new Shard(shard.id(), r.url(), shard.status(), shard.weight(), shard.keyCount());
  }

  /** A connection to a healthy replica of the shard, or null: the read goes to the primary (and is counted). */
  synchronized ShardLease lease(ShardSession session, Shard shard, SessionState state, ShardPools pools) throws SQLException {
    List<Replica> replicas = directory.replicas(shard.id());
    if (replicas.isEmpty()) {
      return null;
    }
    ReplicaHealth h = health.get();
    if (h == null) {
      return null; // the cluster is closing
    }
    Replica r = choose(shard.id(), replicas, h);
    if (r == null) {
      return null;
    }
    String position = writes == null ? null : writes.waitFor(shard.id(), r, h);
    if (Writes.UNKNOWN.equals(position)) {
      h.counted(ReplicaHealth.Fallback.CAUSAL); // written just now, its position not known: the primary has it
      return null;
    }
    Shard view = view(shard, r);
    Connection c;
    try {
      c = pools.borrowReplica(view, r.replicaId());
    } catch (SQLException e) {
      h.down(r, e);
      h.counted(ReplicaHealth.Fallback.DOWN);
      chosen.remove(shard.id());
      return null;
    }
    try {
      if (state.catalog != null) {
        c.setCatalog(state.catalog);
      }
      state.applyNetworkTimeout(c);
    } catch (SQLException e) {
      c.close();
      h.down(r, e);
      h.counted(ReplicaHealth.Fallback.DOWN);
      return null;
    }
    h.servedByReplica();
    if (position != null) {
      h.waitSent();
    }
    ShardLease lease = new ShardLease(session, view, c, false);
    lease.onReplica(new ReplicaWait(this, r, position, writes == null ? null : writes.seconds));
    return lease;
  }

  /** The replica answered after waiting for this connection's write: later reads there need not wait for it. */
  void caughtUp(Replica r) {
    writes.caughtUp(r);
  }

  /** The wait timed out (or never went out): the read runs on the primary. */
  void waitFailed() {
    ReplicaHealth h = health.get();
    if (h != null) {
      h.counted(ReplicaHealth.Fallback.CAUSAL);
    }
  }

  /** A read failed on the replica and runs on the primary; a replica that cannot be reached takes no read until probed again. */
  synchronized void readFailed(Replica r, SQLException e) {
    ReplicaHealth h = health.get();
    if (h == null) {
      return;
    }
    h.counted(ReplicaHealth.Fallback.FAILED);
    if (dev.shardex.vocabulary.ErrorKind.of(e).unreachable()) {
      h.down(r, e);
      chosen.remove(r.shardId());
    }
  }

  /** The sticky choice if it is still healthy, else a weighted draw among the healthy ones; null (counted) when none is. */
  private Replica choose(int shardId, List<Replica> replicas, ReplicaHealth h) {
    Integer kept = chosen.get(shardId);
    ReplicaHealth.Fallback why = null;
    double total = 0;
    Replica[] healthy = new Replica[replicas.size()];
    int n = 0;
    for (Replica r : replicas) {
      ReplicaHealth.Fallback verdict = h.verdict(r, ask.maxLagMs());
      if (verdict == null) {
        if (kept != null && kept == r.replicaId()) {
          return r;
        }
        healthy[n++] = r;
        total += r.weight();
      } else if (why == null || verdict == ReplicaHealth.Fallback.MOVING) {
        why = verdict;
      }
    }
    if (n == 0) {
      h.counted(why);
      chosen.remove(shardId);
      return null;
    }
    double draw = ThreadLocalRandom.current().nextDouble(total);
    Replica pick = healthy[n - 1];
    for (int i = 0; i < n; i++) {
      draw -= healthy[i].weight();
      if (draw < 0) {
        pick = healthy[i];
        break;
      }
    }
    chosen.put(shardId, pick.replicaId());
    return pick;
  }
}
