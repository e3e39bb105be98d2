package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.xa.XaLog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finishes prepared branches left by a crash, a killed shard or a commit that broke half way.
 *
 * <p>{@code atomic} branches (gtrid {@code sha-ORIGIN.CONN-CLIENT-N}): commit if the origin shard
 * holds the commit record; roll back if it holds the abort tombstone; with neither, once the
 * transaction can no longer commit (its driver instance's heartbeat is stale, the origin
 * connection that ran it is gone, or the branch has sat prepared for a whole stale period),
 * recovery writes the tombstone itself: the record's primary key makes that race with a late
 * commit safe (whichever lands first decides). Records whose branches are all resolved are then
 * deleted. {@code xa} branches are finished by {@link XaCoordinator#recover}.
 */
public final class Recovery {
  private final Directory directory;
  private final ShardPools pools;
  private final long staleAfterMs;
  /** When each still-undecided gtrid was first seen prepared (System.nanoTime). */
  private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();

  /** What one pass did. */
  public record Report(int committed, int rolledBack, int pending, int cleaned) {
    public int finished() {
      return committed + rolledBack;
    }

    @Override
    public String toString() {
      return "committed " + committed + " prepared branches, rolled back " + rolledBack + ", " + pending
          + " still undecided, " + cleaned + " commit records cleaned";
    }
  }

  /** The daemon thread that runs a driver instance's recovery passes ({@code shardex-recovery-INSTANCE}). */
  public static java.util.concurrent.ScheduledExecutorService scheduler(String instance) {
    return java.util.concurrent.Executors.newSingleThreadScheduledExecutor(new java.util.concurrent.ThreadFactory() {
      @Override
      public Thread newThread(Runnable r) { // not a lambda: this runs while a fresh JVM opens its first connection
        Thread t = new Thread(r, "shardex-recovery-" + instance);
        t.setDaemon(true);
        return t;
      }
    });
  }

  public Recovery(Directory directory, ShardPools pools, long staleAfterMs) {
    this.directory = directory;
    this.pools = pools;
    this.staleAfterMs = staleAfterMs;
  }

  /**
   * One pass over every reachable shard. {@code cleanAll}: also delete resolved records on every
   * shard; otherwise only on the origins of branches this pass resolved (a quiet pass sends
   * nothing but XA RECOVER to the shards).
   */
  public synchronized Report run(boolean cleanAll) throws SQLException {
    int xa = XaCoordinator.recover(directory, pools, staleAfterMs);
    Set<String> live = XaCoordinator.liveTags(new XaLog(directory.store()), staleAfterMs);
    Map<String, List<Integer>> prepared = new TreeMap<>();
    boolean allReachable = true;
    for (Shard shard : directory.shards().values()) {
      try (Connection c = pools.borrow(shard)) {
        for (String[] x : XaCoordinator.prepared(c, AtomicCommit.PREFIX)) {
          prepared.computeIfAbsent(x[0], g -> new ArrayList<>()).add(Integer.parseInt(x[1]));
        }
      } catch (SQLException | RuntimeException e) {
        allReachable = false;
      }
    }
    int committed = 0;
    int rolledBack = 0;
    int pending = 0;
    Set<Integer> origins = new HashSet<>();
    for (Map.Entry<String, List<Integer>> t : prepared.entrySet()) {
      String outcome = decide(t.getKey(), live);
      if (outcome == null) {
        pending += t.getValue().size();
        continue;
      }
      firstSeen.remove(t.getKey());
      origins.add(AtomicCommit.origin(t.getKey()));
      for (int b : t.getValue()) {
        try (Connection c = pools.borrow(directory.shard(b))) {
          AtomicCommit.execute(c, (outcome.equals("C") ? "XA COMMIT " : "XA ROLLBACK ") + XaCoordinator.xid(t.getKey(), b));
          if (outcome.equals("C")) {
            committed++;
          } else {
            rolledBack++;
          }
        } catch (SQLException e) {
          pending++; // the live driver finished it meanwhile, or the shard is down: next pass
        }
      }
    }
    firstSeen.keySet().retainAll(prepared.keySet());
    int cleaned = allReachable && (cleanAll || !origins.isEmpty()) ? clean(prepared.keySet(), cleanAll ? null : origins) : 0;
    return new Report(committed + xa, rolledBack, pending, cleaned);
  }

  /** 'C', 'A' or null (undecided: the transaction may still commit, or its origin is down). */
  private String decide(String gtrid, Set<String> live) {
    int origin = AtomicCommit.origin(gtrid);
    try (Connection c = pools.borrow(directory.shard(origin))) {
      CommitRecords.ensure(pools, directory.shard(origin));
      String outcome = CommitRecords.outcome(c, gtrid);
      if (outcome == null && abandoned(gtrid, c, live)) {
        outcome = CommitRecords.decide(c, gtrid);
      }
      return outcome;
    } catch (SQLException | RuntimeException e) {
      return null;
    }
  }

  /** Whether the transaction can no longer reach its commit point by itself. */
  private boolean abandoned(String gtrid, Connection origin, Set<String> live) throws SQLException {
    if (live.stream().noneMatch(tag -> gtrid.contains("-" + tag + "-"))) {
      return true; // its driver instance is gone
    }
    try (PreparedStatement ps = origin.prepareStatement("SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?")) {
      ps.setLong(1, AtomicCommit.originConnection(gtrid));
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return true; // the origin connection, and with it its local transaction, has ended
        }
      }
    }
    long first = firstSeen.computeIfAbsent(gtrid, g -> System.nanoTime());
    return System.nanoTime() - first >= staleAfterMs * 1_000_000L;
  }

  /** Deletes resolved records on the given origins (null: every shard). */
  private int clean(Set<String> unresolved, Set<Integer> origins) {
    int cleaned = 0;
    Set<String> done = new HashSet<>();
    for (Shard shard : directory.shards().values()) {
      if ((origins != null && !origins.contains(shard.id())) || !done.add(shard.url())) {
        continue;
      }
      try (Connection c = pools.borrow(shard)) {
        if (CommitRecords.exists(c)) {
          cleaned += CommitRecords.clean(c, unresolved);
        }
      } catch (SQLException | RuntimeException e) {
        // next pass
      }
    }
    return cleaned;
  }
}
