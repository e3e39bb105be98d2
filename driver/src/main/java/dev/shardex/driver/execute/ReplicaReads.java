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
 * lag), and the fallback to the primary, counted. Only made for connections that ask for replica
 * reads ({@code shardex.readTarget=replica_preferred}, or {@code shardex.readOnlyTarget=replica} while
 * {@code setReadOnly(true)}); every other connection has none and its reads never look here.
 */
public final class ReplicaReads {
  /** What a connection asked for: replica reads always ({@code readTarget}), else only while read-only; the lag bound. */
  public record Ask(boolean always, long maxLagMs) {}

  private final Ask ask;
  private final Directory directory;
  private final Supplier<ReplicaHealth> health;
  private final Map<Integer, Integer> chosen = new HashMap<>();

  public ReplicaReads(Ask ask, Directory directory, Supplier<ReplicaHealth> health) {
    this.ask = ask;
    this.directory = directory;
    this.health = health;
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
  ShardLease lease(ShardSession session, Shard shard, SessionState state, ShardPools pools) throws SQLException {
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
    return new ShardLease(session, view, c, false);
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
