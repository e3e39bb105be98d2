package dev.shardex.benchmarks;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What telemetry costs a single-shard statement end to end, on the thread that runs it (a
 * one-shard statement runs entirely there): bytes allocated and CPU time per execution, with
 * shardex.telemetry=none, jmx (the default, with the slow-statement log), shardex-micrometer on a
 * SimpleMeterRegistry (shardex.telemetry=listeners, with the slow log), and both (jmx-micrometer:
 * the default with shardex-micrometer installed, as Spring Boot runs it).
 *
 * <p>Every setting is a cluster of its own (own pools, own server connections) and all run on ONE
 * thread, in chunks of {@code cost.ops} statements, every setting once per round and workload in
 * an order shuffled per round (seeded): thread placement, JIT profile, machine load and cache
 * state hit them alike. A second {@code none} cluster ({@code none2}) is measured as if it were a
 * setting: none2 vs none is the method's own noise floor, printed next to each figure. A figure is
 * the median over rounds of the paired difference to {@code none}, with a 95% bootstrap interval
 * and the sign test's count (rounds where the setting was the dearer). The run has {@code
 * cost.parts} parts (4), each with freshly opened clusters, opened in another order: a cluster
 * whose connections are slower (by several us a statement for a whole part: the loopback TCP path
 * differs) shows as parts that disagree,
 * and the pooled figure averages over several openings.
 *
 * <p>{@code mvn -q -o -Dmaven.test.skip=true -Pbench -pl benchmarks -am verify -Dbench.skipJmh=true
 * -Dbench.main=dev.shardex.benchmarks.TelemetryCost}; options {@code cost.rounds} per part (500),
 * {@code cost.warm} rounds per part not kept (40), {@code cost.ops} per chunk (100), {@code
 * cost.compare} ({@code jmx,micrometer,jmx-micrometer}: which settings to compare with none;
 * {@code micrometer} alone measures it in a JVM where it is the only listener, as an application
 * with it alone runs: with several listener classes the JIT dispatches the listener calls
 * through an interface table, an itable stub in the profile), {@code
 * cost.profile=FILE} with {@code cost.profiler=PATH} (async-profiler's library; its jar on the
 * boot class path): the measured rounds of the Micrometer comparison are sampled (CPU, every
 * {@code cost.interval}, 100us) and the run ends with each setting's profiled CPU per statement,
 * the part in telemetry frames, and the frames Micrometer's setting spends more in than none
 * ({@link TelemetryProfile}; each setting's chunks then run under a frame of its own, {@code
 * asNone} and so on, since they share the thread: each gets its own compiled copy of the loop, so
 * a profiled run's CPU differences carry whatever the JIT made of each copy, and the profiler's
 * own cost, and are not the figures; without a profile every setting runs the one loop).
 */
public final class TelemetryCost {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final int USERS = 256;
  private static final String POINT = "SELECT user_id, name, email, visits FROM users WHERE user_id = ?";
  private static final String UPDATE = "UPDATE users SET visits = visits + 1 WHERE user_id = ?";
  private static final String[] WORKLOADS = {"point select", "update by key"};
  /** Every setting's frame in a profile, by its index here. */
  static final String[] SETTINGS = {"none", "none2", "jmx", "micrometer", "jmx-micrometer"};
  private static final String PROFILE = System.getProperty("cost.profile");
  private static final String INTERVAL = System.getProperty("cost.interval", "100us");
  /** Parts of the run, each with freshly opened clusters. */
  private static final int PARTS = Integer.getInteger("cost.parts", 4);

  private static boolean profiling;

  private TelemetryCost() {}

  public static void main(String[] args) throws Exception {
    int rounds = Integer.getInteger("cost.rounds", 500);
    int warm = Integer.getInteger("cost.warm", 40);
    int ops = Integer.getInteger("cost.ops", 100);
    List<String> compare = List.of(System.getProperty("cost.compare", "jmx,micrometer,jmx-micrometer").split(","));
    double load = Harness.loadAverage();
    System.out.printf(Locale.ROOT, "one thread, chunks of %d statements, %d parts of %d rounds (each after %d warm-up rounds"
        + " not kept); figures: median of paired differences [95%% bootstrap interval], rounds dearer%n", ops, PARTS, rounds,
        warm);
    try (BenchCluster cluster = BenchCluster.start("telemetry-cost", 4, USERS, 1)) {
      cluster.placeUsers(1);
      cluster.loadRows();
      // the Micrometer listener applies to every cluster that takes listeners: jmx's too, so jmx
      // is measured before it is installed, and micrometer against none after
      if (compare.contains("jmx")) {
        compare(cluster, "a", new String[] {"none", "none2", "jmx"}, rounds, warm, ops, false);
      }
      List<String> b = new ArrayList<>(List.of("none", "none2"));
      b.addAll(compare.stream().filter(c -> c.contains("micrometer")).toList());
      if (b.size() > 2) {
        dev.shardex.micrometer.ShardexMetrics.install(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
        compare(cluster, "b", b.toArray(new String[0]), rounds, warm, ops, true);
      }
      dev.shardex.driver.ShardexDriver.shutdown(); // before the servers stop
    }
    System.out.printf(Locale.ROOT, "machine load average (1 min) at the start / end: %.1f / %.1f%n", load,
        Harness.loadAverage());
    if (PROFILE != null) {
      profiler("stop,file=" + PROFILE + ",collapsed");
      TelemetryProfile.read(java.nio.file.Path.of(PROFILE), INTERVAL).print(System.out,
          (long) PARTS * rounds * ops * WORKLOADS.length, "micrometer", "none");
    }
    System.exit(0);
  }

  /** One setting: its cluster's connection and statements, all used on the one measuring thread. */
  private static final class Setting implements AutoCloseable {
    private final int frame;
    private final Connection connection;
    private final PreparedStatement[] statements;

    Setting(BenchCluster cluster, String group, String name) throws Exception {
      this.frame = Arrays.asList(SETTINGS).indexOf(name);
      String mode = name.startsWith("none") ? "none" : name.equals("micrometer") ? "listeners"
          : name.equals("jmx-micrometer") ? "jmx" : name;
      String url = cluster.shardexUrl("cost-" + group + "-" + name + "-" + System.nanoTime()) + "&shardex.telemetry=" + mode;
      this.connection = DriverManager.getConnection(url);
      this.statements = new PreparedStatement[] {connection.prepareStatement(POINT), connection.prepareStatement(UPDATE)};
    }

    /** CPU µs, bytes and waits (voluntary context switches) per statement over one chunk of {@code ops}. */
    double[] chunk(int workload, int ops) throws Exception {
      PreparedStatement ps = statements[workload];
      long w0 = waits();
      long b0 = THREADS.getCurrentThreadAllocatedBytes();
      long c0 = THREADS.getCurrentThreadCpuTime();
      switch (PROFILE == null ? -1 : frame) {
        case -1 -> run(ps, workload, ops); // one compiled loop for every setting
        case 0 -> asNone(ps, workload, ops);
        case 1 -> asNone2(ps, workload, ops);
        case 2 -> asJmx(ps, workload, ops);
        case 3 -> asMicrometer(ps, workload, ops);
        default -> asJmxMicrometer(ps, workload, ops);
      }
      double[] used = {(THREADS.getCurrentThreadCpuTime() - c0) / 1000.0 / ops,
          (THREADS.getCurrentThreadAllocatedBytes() - b0) / (double) ops, 0};
      used[2] = (waits() - w0) / (double) ops;
      return used;
    }

    @Override
    public void close() throws Exception {
      connection.close();
    }
  }

  /**
   * Each setting against the first ({@code none}): parts of freshly opened clusters (each opened
   * in another order), every round each workload once per setting in a shuffled order. {@code
   * [part][setting][workload][round]}: CPU us, then bytes.
   */
  private static void compare(BenchCluster cluster, String group, String[] modes, int rounds, int warm, int ops,
      boolean profiled) throws Exception {
    double[][][][] cpu = new double[PARTS][modes.length][WORKLOADS.length][rounds];
    double[][][][] bytes = new double[PARTS][modes.length][WORKLOADS.length][rounds];
    double[][][][] waits = new double[PARTS][modes.length][WORKLOADS.length][rounds];
    Random shuffle = new Random(33);
    long began = System.nanoTime();
    for (int part = 0; part < PARTS; part++) {
      Setting[] settings = new Setting[modes.length];
      try {
        for (int k = 0; k < modes.length; k++) {
          int i = (part % 2 == 0 ? k + part : modes.length - 1 - k + part) % modes.length;
          settings[i] = new Setting(cluster, group, modes[i]);
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < modes.length; i++) {
          order.add(i);
        }
        for (int round = -warm; round < rounds; round++) {
          if (round == 0 && profiled) {
            profile(true);
          }
          for (int w = 0; w < WORKLOADS.length; w++) {
            Collections.shuffle(order, shuffle);
            for (int i : order) {
              double[] used = settings[i].chunk(w, ops);
              if (round >= 0) {
                cpu[part][i][w][round] = used[0];
                bytes[part][i][w][round] = used[1];
                waits[part][i][w][round] = used[2];
              }
            }
          }
        }
        if (profiled) {
          profile(false);
        }
      } finally {
        for (Setting s : settings) {
          if (s != null) {
            s.close();
          }
        }
      }
    }
    System.out.printf(Locale.ROOT, "%s: %d s, load average (1 min) %.1f%n", String.join(", ", modes),
        (System.nanoTime() - began) / 1_000_000_000L, Harness.loadAverage());
    for (int w = 0; w < WORKLOADS.length; w++) {
      Paired floor = Paired.of(all(cpu, 1, w), all(cpu, 0, w));
      for (int i = 1; i < modes.length; i++) {
        Paired d = Paired.of(all(cpu, i, w), all(cpu, 0, w));
        StringBuilder parts = new StringBuilder();
        for (int part = 0; part < PARTS; part++) {
          parts.append(part == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%+.2f (waits %+.2f)",
              Paired.of(cpu[part][i][w], cpu[part][0][w]).median(), Paired.of(waits[part][i][w], waits[part][0][w]).median()));
        }
        System.out.printf(Locale.ROOT,
            "%-14s %-14s vs none: %+6.1f B/op (%.1f vs %.1f), %s us CPU/op, dearer in %s (%.2f vs %.2f; waits/op %.2f vs %.2f);"
                + " parts %s;"
                + " floor none2 vs none %s%n",
            WORKLOADS[w], modes[i], Paired.of(all(bytes, i, w), all(bytes, 0, w)).median(),
            Paired.median(all(bytes, i, w)), Paired.median(all(bytes, 0, w)), d.text(2), d.signs(),
            Paired.median(all(cpu, i, w)), Paired.median(all(cpu, 0, w)), Paired.median(all(waits, i, w)),
            Paired.median(all(waits, 0, w)), parts, floor.text(2));
      }
    }
  }

  /**
   * This thread's voluntary context switches so far (Linux; 0 elsewhere): the statements that found
   * no answer yet and slept for it. A sleep and wake-up costs the thread CPU time of its own, so a
   * cluster whose server connections answer later costs more CPU per statement for that alone.
   */
  private static long waits() {
    try {
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/thread-self/status"))) {
        if (line.startsWith("voluntary_ctxt_switches:")) {
          return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }

  /** One setting's rounds of one workload, every part. */
  private static double[] all(double[][][][] m, int setting, int workload) {
    double[] a = new double[0];
    for (double[][][] part : m) {
      a = Paired.concat(a, part[setting][workload]);
    }
    return a;
  }

  // when profiled, each setting's chunks run under a frame of its own, so one thread's profile tells them apart
  private static void asNone(PreparedStatement ps, int workload, int ops) throws Exception {
    run(ps, workload, ops);
  }

  private static void asNone2(PreparedStatement ps, int workload, int ops) throws Exception {
    run(ps, workload, ops);
  }

  private static void asJmx(PreparedStatement ps, int workload, int ops) throws Exception {
    run(ps, workload, ops);
  }

  private static void asMicrometer(PreparedStatement ps, int workload, int ops) throws Exception {
    run(ps, workload, ops);
  }

  private static void asJmxMicrometer(PreparedStatement ps, int workload, int ops) throws Exception {
    run(ps, workload, ops);
  }

  /** Samples the measured rounds only: the first start begins the profile, later ones resume it. */
  private static void profile(boolean on) throws Exception {
    if (PROFILE == null) {
      return;
    }
    if (on) {
      profiler((profiling ? "resume" : "start") + ",event=cpu,interval=" + INTERVAL);
      profiling = true;
    } else {
      profiler("stop");
    }
  }

  private static void profiler(String command) throws Exception {
    Object profiler = Class.forName("one.profiler.AsyncProfiler").getMethod("getInstance", String.class)
        .invoke(null, System.getProperty("cost.profiler"));
    profiler.getClass().getMethod("execute", String.class).invoke(profiler, command);
  }

  private static void run(PreparedStatement ps, int workload, int ops) throws Exception {
    for (int n = 0; n < ops; n++) {
      ps.setLong(1, n & (USERS - 1));
      if (workload == 0) {
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
        }
      } else {
        ps.executeUpdate();
      }
    }
  }
}
