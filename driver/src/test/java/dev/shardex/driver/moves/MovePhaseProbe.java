package dev.shardex.driver.moves;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.shardex.sandbox.SandboxCluster;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Where a move's slow writes waited, measured beside {@link WritePauseBenchmark}: every 50 ms it
 * reads both shards' process lists (statements running, statements waiting for a table's metadata
 * lock or a row lock, the mover's own statement), and it records this JVM's GC pauses (the writers
 * and the mover share the JVM). {@link #report} then buckets the writes scheduled during the move
 * by time and prints, for the buckets with the slowest writes, what the shards and the JVM were
 * doing then.
 */
final class MovePhaseProbe implements AutoCloseable {
  static final long SAMPLE_MS = 50;
  static final long BUCKET_MS = 500;

  /** One look at one shard. */
  record Look(long at, int shard, int running, int mdlWaits, int rowLockWaits, String mover) {}

  /** One GC pause of this JVM, ending at {@code end} (nanoTime). */
  record Pause(long end, long ms, String what) {}

  private final List<Look> looks = new CopyOnWriteArrayList<>();
  private final List<Pause> pauses = new CopyOnWriteArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread sampler;
  private final List<Runnable> unlisten = new ArrayList<>();
  private final int shards;

  MovePhaseProbe(SandboxCluster sandbox, int shards) {
    this.shards = shards;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        NotificationListener l = (n, h) -> {
          if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            long ms = info.getGcInfo().getDuration();
            if (!info.getGcName().contains("Concurrent")) {
              pauses.add(new Pause(System.nanoTime(), ms, info.getGcAction() + "/" + info.getGcCause()));
            }
          }
        };
        emitter.addNotificationListener(l, null, null);
        unlisten.add(() -> {
          try {
            emitter.removeNotificationListener(l);
          } catch (javax.management.ListenerNotFoundException e) {
            // gone already
          }
        });
      }
    }
    sampler = new Thread(() -> sample(sandbox), "move-phase-probe");
    sampler.setDaemon(true);
    sampler.start();
  }

  private void sample(SandboxCluster sandbox) {
    List<Connection> conns = new ArrayList<>();
    try {
      for (int i = 0; i < shards; i++) {
        conns.add(sandbox.connectShard(i));
      }
      while (!stop.get()) {
        for (int i = 0; i < shards; i++) {
          looks.add(look(conns.get(i), i));
        }
        Thread.sleep(SAMPLE_MS);
      }
    } catch (SQLException | InterruptedException e) {
      looks.add(new Look(System.nanoTime(), -1, 0, 0, 0, "probe stopped: " + e));
    } finally {
      for (Connection c : conns) {
        try {
          c.close();
        } catch (SQLException e) {
          // closing
        }
      }
    }
  }

  private static Look look(Connection c, int shard) throws SQLException {
    int running = 0;
    int mdl = 0;
    int rowLock = 0;
    String mover = null;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT state, info FROM information_schema.processlist WHERE command = 'Query' "
            + "AND id <> CONNECTION_ID()")) {
      while (rs.next()) {
        String state = rs.getString(1) == null ? "" : rs.getString(1);
        String info = rs.getString(2) == null ? "" : rs.getString(2);
        running++;
        if (state.contains("metadata lock")) {
          mdl++;
        }
        boolean writer = info.startsWith("UPDATE pause_rows SET v") || info.startsWith("INSERT INTO pause_rows (id, user_id, v, note, at) VALUES (");
        if (!writer && !info.isEmpty() && mover == null) {
          mover = info.length() > 60 ? info.substring(0, 60) : info;
        }
      }
    }
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'")) {
      rs.next();
      rowLock = rs.getInt(1);
    }
    return new Look(System.nanoTime(), shard, running, mdl, rowLock, mover);
  }

  /**
   * The writes scheduled during the move in {@link #BUCKET_MS} buckets from {@code moveStart}: for
   * the buckets holding the slowest 1% (and the first ones), the writes' count, p99 and max, the
   * shards' statements running and waiting for locks, this JVM's GC pauses and the mover's statements.
   */
  String report(List<WritePauseBenchmark.Sample> samples, long moveStart, long moveEnd, long p99Nanos) {
    Map<Long, List<Long>> byBucket = new TreeMap<>();
    for (WritePauseBenchmark.Sample s : samples) {
      if (s.ok() && s.intended() >= moveStart && s.intended() < moveEnd) {
        byBucket.computeIfAbsent(bucket(s.intended(), moveStart), k -> new ArrayList<>()).add(s.nanos());
      }
    }
    StringBuilder out = new StringBuilder(String.format("  by %d ms of the move (writes scheduled then; shards' statements"
        + " running / waiting for a metadata lock / for a row lock, max of %d ms looks; GC pauses of this JVM; the mover's statements):%n",
        BUCKET_MS, SAMPLE_MS));
    int printed = 0;
    for (Map.Entry<Long, List<Long>> e : byBucket.entrySet()) {
      long[] lat = e.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
      long slow = java.util.Arrays.stream(lat).filter(n -> n >= p99Nanos).count();
      if (slow == 0 && e.getKey() >= 4) {
        continue;
      }
      if (++printed > 80) {
        out.append("  ...\n");
        break;
      }
      long b = e.getKey();
      out.append(String.format("  +%5.1f s: n=%d p99=%d ms max=%d ms slowest-1%%=%d", b * BUCKET_MS / 1000.0, lat.length,
          ms(MoveTestSupport.percentile(lat, 99)), ms(lat[lat.length - 1]), slow));
      for (int shard = 0; shard < shards; shard++) {
        int sh = shard;
        List<Look> in = looks.stream().filter(l -> l.shard() == sh && bucket(l.at(), moveStart) == b).toList();
        out.append(String.format(" | shard %d %d/%d/%d", shard, in.stream().mapToInt(Look::running).max().orElse(0),
            in.stream().mapToInt(Look::mdlWaits).max().orElse(0), in.stream().mapToInt(Look::rowLockWaits).max().orElse(0)));
        in.stream().map(Look::mover).filter(m -> m != null).distinct().limit(2)
            .forEach(m -> out.append(" [").append(m.replaceAll("\\s+", " ")).append(']'));
      }
      long gc = pauses.stream().filter(p -> bucket(p.end(), moveStart) == b).mapToLong(Pause::ms).sum();
      long gcMax = pauses.stream().filter(p -> bucket(p.end(), moveStart) == b).mapToLong(Pause::ms).max().orElse(0);
      out.append(String.format(" | GC %d ms (max %d)%n", gc, gcMax));
    }
    long gcDuring = pauses.stream().filter(p -> p.end() >= moveStart && p.end() < moveEnd).mapToLong(Pause::ms).sum();
    long gcMaxDuring = pauses.stream().filter(p -> p.end() >= moveStart && p.end() < moveEnd).mapToLong(Pause::ms).max().orElse(0);
    out.append(String.format("  GC pauses during the move: %d ms in all, the longest %d ms; heap max %d MB; those of 50 ms or more"
        + " (ending at +s):", gcDuring, gcMaxDuring, Runtime.getRuntime().maxMemory() >> 20));
    pauses.stream().filter(p -> p.end() >= moveStart && p.end() < moveEnd && p.ms() >= 50).limit(40)
        .forEach(p -> out.append(String.format(" +%.1f %d ms;", (p.end() - moveStart) / 1e9, p.ms())));
    out.append(System.lineSeparator());
    return out.toString();
  }

  private static long bucket(long at, long moveStart) {
    return Math.floorDiv(at - moveStart, TimeUnit.MILLISECONDS.toNanos(BUCKET_MS));
  }

  private static long ms(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    sampler.join(5_000);
    unlisten.forEach(Runnable::run);
  }
}
