package dev.shardex.benchmarks;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs timed rounds of one workload on one contender with N threads, each on its own session.
 *
 * <p>Fairness: every contender gets the same threads, the same per-thread random key sequence in a
 * given round (seeded by thread and round), and the caller alternates contenders round by round,
 * so a slow moment of this shared 2-core machine hits all of them alike.
 */
public final class Runner implements AutoCloseable {
  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

  private final int users;
  private final Map<Contender, Session[]> sessions = new LinkedHashMap<>();
  private final ExecutorService workers;

  /** Opens {@code maxThreads} sessions per contender, kept for the whole run. */
  public Runner(int users, List<Contender> contenders, int maxThreads) throws SQLException {
    this.users = users;
    for (Contender c : contenders) {
      Session[] s = new Session[maxThreads];
      for (int i = 0; i < maxThreads; i++) {
        s[i] = new Session(c);
      }
      sessions.put(c, s);
    }
    AtomicInteger n = new AtomicInteger();
    this.workers = Executors.newFixedThreadPool(maxThreads, r -> {
      Thread t = new Thread(r, "bench-worker-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  public Session session(Contender c, int thread) {
    return sessions.get(c)[thread];
  }

  /**
   * One timed round: operations done, nanoseconds elapsed, every operation's latency (ns), the CPU
   * time this JVM used meanwhile (all threads: fan-out pools, GC, JIT, pollers) and the CPU time
   * of the calling threads alone (user + kernel, including the socket system calls). For a
   * single-shard statement the caller's CPU is the whole client-side cost of the operation, and
   * the busy neighbours of this shared machine barely move it, unlike throughput.
   */
  public record Round(long ops, long nanos, long[] latencies, long cpuNanos, long callerCpuNanos) {
    double opsPerSecond() {
      return ops * 1e9 / nanos;
    }
  }

  public Round round(Contender c, Workload w, boolean fresh, int threads, long nanos, int seed) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    long[] startAt = new long[1];
    List<Future<long[]>> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Session s = session(c, t);
      SplittableRandom random = new SplittableRandom(seed * 1_000_003L + t);
      parts.add(workers.submit(() -> {
        go.await();
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        long deadline = startAt[0] + nanos;
        long[] lat = new long[8_192];
        int n = 0;
        long sink = 0;
        long now = System.nanoTime();
        while (now < deadline) {
          long before = now;
          sink += w.run(s, random, users, fresh);
          now = System.nanoTime();
          if (n == lat.length) {
            lat = Arrays.copyOf(lat, n * 2);
          }
          lat[n++] = now - before;
        }
        if (sink == Long.MIN_VALUE) {
          System.out.print(""); // keeps the results alive
        }
        long[] out = Arrays.copyOf(lat, n + 2);
        out[n] = THREADS.getCurrentThreadCpuTime() - cpuStart; // the thread's CPU time and end time, stripped below
        out[n + 1] = now;
        return out;
      }));
    }
    long cpuBefore = processCpuNanos();
    startAt[0] = System.nanoTime();
    go.countDown();
    long ops = 0;
    long end = startAt[0];
    long callerCpu = 0;
    List<long[]> all = new ArrayList<>();
    for (Future<long[]> f : parts) {
      long[] lat = f.get();
      end = Math.max(end, lat[lat.length - 1]);
      callerCpu += lat[lat.length - 2];
      long[] own = Arrays.copyOf(lat, lat.length - 2);
      ops += own.length;
      all.add(own);
    }
    long cpu = processCpuNanos() - cpuBefore;
    long[] merged = new long[(int) ops];
    int at = 0;
    for (long[] a : all) {
      System.arraycopy(a, 0, merged, at, a.length);
      at += a.length;
    }
    return new Round(ops, end - startAt[0], merged, cpu, callerCpu);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @Override
  public void close() throws SQLException {
    workers.shutdownNow();
    for (Session[] all : sessions.values()) {
      for (Session s : all) {
        s.close();
      }
    }
  }
}
