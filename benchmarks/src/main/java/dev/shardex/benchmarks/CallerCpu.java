package dev.shardex.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The harness's caller-CPU figure for the single-shard cells alone: one thread, direct and Shardex
 * taking turns in blocks of operations (so machine load hits both alike), and per cell the median
 * over blocks of Shardex's CPU time per operation minus direct's. On a loaded machine that
 * difference still swings by several µs from run to run; a CPU profile of the measured pass
 * ({@code -Dcpu.profile}, read by {@link CpuProfile}) splits Shardex's operations into the time
 * spent inside Connector/J and Shardex's own, which is what a change to the driver moves.
 *
 * <p>Options: {@code cpu.users} (2000), {@code cpu.blocks} (40), {@code cpu.ops} per block (1000),
 * {@code cpu.warmup} blocks per cell in the JIT pass (10), {@code cpu.workloads}
 * (POINT_SELECT,UPDATE,INSERT,TIMELINE), {@code cpu.fresh} ("both"; "kept": prepared once, "fresh":
 * prepared per operation), {@code cpu.contenders} ("direct,shardex"), {@code cpu.profile} (see
 * {@link #profile}).
 */
public final class CallerCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final int users = Integer.getInteger("cpu.users", 2_000);
  private final int blocks = Integer.getInteger("cpu.blocks", 40);
  private final int ops = Integer.getInteger("cpu.ops", 1_000);
  private final int warmup = Integer.getInteger("cpu.warmup", 10);
  private final List<Workload> workloads = Arrays.stream(
      System.getProperty("cpu.workloads", "POINT_SELECT,UPDATE,INSERT,TIMELINE").split(","))
      .map(s -> Workload.valueOf(s.trim())).toList();
  private final String fresh = System.getProperty("cpu.fresh", "both");
  private final List<Session> sessions = new ArrayList<>();

  private CallerCpu() {}

  public static void main(String[] args) throws Exception {
    double loadAtStart = Harness.loadAverage();
    CallerCpu run = new CallerCpu();
    try (BenchCluster cluster = BenchCluster.start("cpu", 4, run.users, 2)) {
      cluster.placeUsers(2);
      cluster.loadRows();
      cluster.readOwners();
      run.measure(cluster, List.of(System.getProperty("cpu.contenders", "direct,shardex").split(",")));
    }
    System.out.printf(Locale.ROOT, "machine load average (1 min) at the start / end: %.1f / %.1f%n", loadAtStart,
        Harness.loadAverage());
    System.exit(0);
  }

  private void measure(BenchCluster cluster, List<String> names) throws Exception {
    List<Contender> contenders = new ArrayList<>();
    try {
      for (String name : names) {
        Contender c = name.equals(Contender.DIRECT) ? new Contender.Direct(cluster)
            : new Contender.Shardex(cluster.shardexUrl("cpu"));
        contenders.add(c);
        sessions.add(new Session(c));
      }
      primeKeyCache();
      pass(warmup, false); // the JIT compiles every cell's path before any is measured
      profile("start,event=" + System.getProperty("cpu.event", "cpu") + ",interval="
          + System.getProperty("cpu.interval", "250us") + ",threads");
      pass(blocks, true);
      profile("stop,file=" + System.getProperty("cpu.profile") + ",collapsed");
    } finally {
      for (Session s : sessions) {
        s.close();
      }
      for (Contender c : contenders) {
        c.close();
      }
      dev.shardex.driver.ShardexDriver.shutdown();
    }
    if (System.getProperty("cpu.profile") != null) {
      CpuProfile.read(java.nio.file.Path.of(System.getProperty("cpu.profile"))).print(System.out,
          (long) ops * blocks * workloads.size() * (fresh.equals("both") ? 2 : 1));
    }
  }

  /**
   * With {@code -Dcpu.profile=FILE} (async-profiler's jar on the class path, its library at
   * {@code -Dcpu.profiler=PATH}; {@code cpu.event}, {@code cpu.interval}), CPU samples of the
   * measured pass go to FILE as collapsed stacks, one line per stack, thread first.
   */
  private static void profile(String command) throws Exception {
    if (System.getProperty("cpu.profile") == null) {
      return;
    }
    Object profiler = Class.forName("one.profiler.AsyncProfiler").getMethod("getInstance", String.class)
        .invoke(null, System.getProperty("cpu.profiler"));
    profiler.getClass().getMethod("execute", String.class).invoke(profiler, command);
  }

  /** Steady state, as in the harness: Shardex's directory key cache holds every user. */
  private void primeKeyCache() throws Exception {
    for (Session s : sessions) {
      for (long user = 0; user < users; user++) {
        s.pointSelect(user, false);
      }
    }
  }

  private void pass(int blockCount, boolean print) throws Exception {
    for (Workload w : workloads) {
      if (!fresh.equals("fresh")) {
        cell(w, false, blockCount, print);
      }
      if (!fresh.equals("kept")) {
        cell(w, true, blockCount, print);
      }
    }
  }

  /** One workload: {@code blockCount} rounds of one block per contender, first mover rotating. */
  private void cell(Workload w, boolean freshPrepare, int blockCount, boolean print) throws Exception {
    int n = sessions.size();
    double[][] cpu = new double[n][blockCount];
    for (int b = 0; b < blockCount; b++) {
      for (int k = 0; k < n; k++) {
        int i = (k + b) % n;
        cpu[i][b] = block(sessions.get(i), w, freshPrepare, 100 + b);
      }
    }
    if (print) {
      System.out.println(line(w, freshPrepare, cpu));
    }
  }

  private String line(Workload w, boolean freshPrepare, double[][] cpu) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-14s %-6s", w.name(), freshPrepare ? "fresh" : "kept"));
    for (int i = 0; i < cpu.length; i++) {
      line.append(String.format(Locale.ROOT, "  %s %.2f us/op", sessions.get(i).contender().name(), median(cpu[i])));
    }
    if (cpu.length == 2) {
      double[] diff = new double[cpu[0].length];
      for (int b = 0; b < diff.length; b++) {
        diff[b] = cpu[1][b] - cpu[0][b];
      }
      line.append(String.format(Locale.ROOT, "  extra %.2f us/op (median of %d block differences)", median(diff),
          diff.length));
    }
    return line.toString();
  }

  /** CPU time of this thread per operation, in µs, over one block. */
  private double block(Session s, Workload w, boolean freshPrepare, int seed) throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    long sink = 0;
    long start = THREADS.getCurrentThreadCpuTime();
    for (int k = 0; k < ops; k++) {
      sink += w.run(s, r, users, freshPrepare);
    }
    long used = THREADS.getCurrentThreadCpuTime() - start;
    if (sink == Long.MIN_VALUE) {
      System.out.print(""); // keeps the results alive
    }
    return used / 1e3 / ops;
  }

  private static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
