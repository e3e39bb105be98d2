package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.catalog.Replica;
import dev.shardex.directory.catalog.ReplicaStatus;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.replica.ReplicaLag;
import dev.shardex.directory.replica.ReplicaLag.Lag;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one driver instance knows of its replicas' health, measured by a probe on its own daemon
 * thread, started by the first replica read a connection asks for (never for a cluster whose
 * connections do not ask). Each probe, per shard with replicas: the primary's position, a heartbeat
 * written there, and per replica its lag ({@link ReplicaLag}) and whether it covers the position the
 * previous probe read.
 *
 * <p>Why "covers the previous probe's position": a replica may serve reads only once it has applied
 * everything its primary had committed after the last move this client heard of (its copy, its source
 * delete), see {@link #verdict}. A probe's position read at time t is such a point once t is past the
 * move; measuring it one probe later lets a replica that keeps up under load qualify without ever
 * being exactly caught up.
 */
public final class ReplicaHealth implements AutoCloseable {
  /** A replica's last verdict: its lag, when measured, and since when it covers a position read at that time. */
  record State(Lag lag, long measuredNanos, long coversNanos) {}

  /** A primary position and when a probe read it. */
  record Point(String position, long nanos) {}

  /** Why a read that asked for a replica went to the primary. */
  public enum Fallback {
    LAGGING,
    UNKNOWN,
    MOVING,
    DOWN,
    /** Read-your-writes: the replica did not reach this connection's write within causalWaitMs, or its position was not known yet. */
    CAUSAL,
    /** The read failed on the replica (it died under it, ...) and ran again on the primary. */
    FAILED
  }

  private final Directory directory;
  private final ShardPools pools;
  private final long probeMs;
  private final Map<String, State> states = new ConcurrentHashMap<>();
  /** Per shard, the positions its primary had at the last probes, oldest first (probe thread only). */
  private final Map<Integer, java.util.ArrayList<Point>> history = new java.util.HashMap<>();
  private static final int HISTORY = 128;
  private final Map<Fallback, AtomicLong> fallbacks = new ConcurrentHashMap<>();
  private final AtomicLong replicaReads = new AtomicLong();
  private final AtomicLong waits = new AtomicLong();
  /** Per shard, the newest position a probe read on its primary (read by connections' threads). */
  private final Map<Integer, Point> latest = new ConcurrentHashMap<>();
  private final ScheduledExecutorService probe;

  public ReplicaHealth(Directory directory, ShardPools pools, long probeMs, String name) {
    this.directory = directory;
    this.pools = pools;
    this.probeMs = probeMs;
    for (Fallback f : Fallback.values()) {
      fallbacks.put(f, new AtomicLong());
    }
    this.probe = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "shardex-" + name + "-replica-health");
      t.setDaemon(true);
      return t;
    });
    var unused = probe.scheduleWithFixedDelay(this::probeAll, 0, probeMs, TimeUnit.MILLISECONDS); // stopped by close
  }

  static String key(int shard, int replica) {
    return shard + "/" + replica;
  }

  /**
   * Whether the replica may take a read now: ONLINE, measured within three probes, its lag known and
   * within {@code maxLagMs}, no move under way, and past the last move this client applied.
   */
  Fallback verdict(Replica r, long maxLagMs) {
    if (directory.movesUnderway()) {
      return Fallback.MOVING;
    }
    State s = states.get(key(r.shardId(), r.replicaId()));
    if (r.status() != ReplicaStatus.ONLINE || s == null || System.nanoTime() - s.measuredNanos() > probeMs * 3_000_000L + 1_000_000_000L) {
      return Fallback.UNKNOWN;
    }
    if (!s.lag().known()) {
      return s.lag().state() == ReplicaLag.State.UNREACHABLE ? Fallback.DOWN : Fallback.UNKNOWN;
    }
    if (!s.lag().within(maxLagMs)) {
      return Fallback.LAGGING;
    }
    return s.coversNanos() > directory.lastMoveNanos() ? null : Fallback.MOVING;
  }

  /** Whether the probe found the replica covering a primary position read after {@code nanos} (so every commit finished before then). */
  boolean covers(Replica r, long nanos) {
    State s = states.get(key(r.shardId(), r.replicaId()));
    return s != null && s.coversNanos() > nanos;
  }

  /** The newest primary position a probe read after {@code nanos}, or null (no probe since). */
  String positionAfter(int shard, long nanos) {
    Point p = latest.get(shard);
    return p != null && p.nanos() > nanos ? p.position() : null;
  }

  /** A borrow from the replica failed: it takes no read until a probe finds it again. */
  void down(Replica r, SQLException e) {
    states.put(key(r.shardId(), r.replicaId()),
        new State(Lag.unknown(ReplicaLag.State.UNREACHABLE, String.valueOf(e.getMessage())), System.nanoTime(), 0));
  }

  void counted(Fallback f) {
    fallbacks.get(f).incrementAndGet();
  }

  void servedByReplica() {
    replicaReads.incrementAndGet();
  }

  /** Reads sent to the primary although their connection asked for a replica, by reason. */
  public long fallbacks(Fallback f) {
    return fallbacks.get(f).get();
  }

  void waitSent() {
    waits.incrementAndGet();
  }

  /**
   * Reads sent to a replica (counted in {@link #replicaReads}) behind a wait for their connection's
   * write; those that timed out ran again on the primary and are counted as {@link Fallback#CAUSAL} too.
   */
  public long causalWaits() {
    return waits.get();
  }

  /** Reads a replica answered, or was sent (a read that then ran on the primary is also counted as CAUSAL or FAILED). */
  public long replicaReads() {
    return replicaReads.get();
  }

  private void probeAll() {
    for (Shard shard : directory.shards().values()) {
      if (!directory.replicas(shard.id()).isEmpty()) {
        try {
          probe(shard);
        } catch (SQLException | RuntimeException e) {
          for (Replica r : directory.replicas(shard.id())) {
            states.put(key(r.shardId(), r.replicaId()), new State(Lag.unknown(ReplicaLag.State.UNREACHABLE,
                "its primary: " + e.getMessage()), System.nanoTime(), 0));
          }
        }
      }
    }
  }

  private void probe(Shard shard) throws SQLException {
    try (Connection primary = pools.borrow(shard)) {
      java.util.ArrayList<Point> points = history.computeIfAbsent(shard.id(), k -> new java.util.ArrayList<>());
      long before = System.nanoTime(); // stamped before the read: the position holds every commit finished by then
      Point read = new Point(ReplicaLag.position(primary), before);
      points.add(read);
      latest.put(shard.id(), read);
      if (points.size() > HISTORY) {
        points.remove(0);
      }
      for (Replica r : directory.replicas(shard.id())) {
        State now;
        try (Connection replica = pools.borrowReplica(ReplicaReads.view(shard, r), r.replicaId())) {
          Lag lag = ReplicaLag.measure(primary, replica, shard.id());
          now = new State(lag, System.nanoTime(), lag.known() ? covered(replica, points) : 0);
        } catch (SQLException e) {
          now = new State(Lag.unknown(ReplicaLag.State.UNREACHABLE, String.valueOf(e.getMessage())), System.nanoTime(), 0);
        }
        states.put(key(r.shardId(), r.replicaId()), now);
      }
      ReplicaLag.beat(primary, shard.id());
    }
  }

  /** When the newest probe position the replica has applied was read (0: none of those kept). */
  private static long covered(Connection replica, java.util.List<Point> points) throws SQLException {
    int lo = 0;
    int hi = points.size() - 1;
    long found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (ReplicaLag.covers(replica, points.get(mid).position())) {
        found = points.get(mid).nanos();
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  @Override
  public void close() {
    probe.shutdownNow();
  }
}
