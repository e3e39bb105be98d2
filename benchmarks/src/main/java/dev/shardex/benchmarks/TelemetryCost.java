package dev.shardex.benchmarks;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What telemetry costs a single-shard statement, measured on the thread that runs it (a one-shard
 * statement runs entirely there): bytes allocated and CPU time per execution, with
 * shardex.telemetry=none, jmx (the default, with the slow-statement log), shardex-micrometer on a
 * SimpleMeterRegistry (shardex.telemetry=listeners, with the slow log), and both (jmx-micrometer:
 * the default with shardex-micrometer installed, as Spring Boot runs it). The settings take turns
 * in blocks, so machine load hits them alike; each figure is the median over blocks of the
 * difference to {@code none}. Allocation per thread does not depend on load; CPU time does,
 * somewhat. Each setting runs on a thread of its own ({@code cost-a-none}, {@code cost-a-jmx},
 * {@code cost-b-none}, {@code cost-b-micrometer}, {@code cost-b-jmx-micrometer}), so a CPU profile
 * tells them apart.
 *
 * <p>{@code mvn -q -o -Dmaven.test.skip=true -Pbench -pl benchmarks -am verify -Dbench.skipJmh=true
 * -Dbench.main=dev.shardex.benchmarks.TelemetryCost}; options {@code cost.blocks} (30),
 * {@code cost.ops} per block (2000), {@code cost.compare} ({@code jmx,micrometer}: which settings
 * to compare with none), {@code cost.profile=FILE} with {@code cost.profiler=PATH} (async-profiler's
 * library; its jar on the boot class path): the measured blocks are sampled (CPU, every
 * {@code cost.interval}, 100us) and the run ends with each setting's profiled CPU per statement and
 * the frames Micrometer's setting spends more in than none ({@link TelemetryProfile}).
 */
public final class TelemetryCost {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final int USERS = 256;
  private static final String POINT = "SELECT user_id, name, email, visits FROM users WHERE user_id = ?";
  private static final String UPDATE = "UPDATE users SET visits = visits + 1 WHERE user_id = ?";
  private static final String[] WORKLOADS = {"point select", "update by key"};
  private static final String PROFILE = System.getProperty("cost.profile");
  private static final String INTERVAL = System.getProperty("cost.interval", "100us");

  private static boolean profiling;

  private TelemetryCost() {}

  public static void main(String[] args) throws Exception {
    int blocks = Integer.getInteger("cost.blocks", 30);
    int ops = Integer.getInteger("cost.ops", 2_000);
    List<String> compare = List.of(System.getProperty("cost.compare", "jmx,micrometer").split(","));
    double load = Harness.loadAverage();
    try (BenchCluster cluster = BenchCluster.start("telemetry-cost", 4, USERS, 1)) {
      cluster.placeUsers(1);
      cluster.loadRows();
      // the Micrometer listener applies to every cluster that takes listeners: jmx's too, so jmx
      // is measured before it is installed, and micrometer against none after
      if (compare.contains("jmx")) {
        compare(cluster, "a", new String[] {"none", "jmx"}, blocks, ops);
      }
      if (compare.contains("micrometer")) {
        dev.shardex.micrometer.ShardexMetrics.install(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
        compare(cluster, "b", new String[] {"none", "micrometer", "jmx-micrometer"}, blocks, ops);
      }
      dev.shardex.driver.ShardexDriver.shutdown(); // before the servers stop
    }
    System.out.printf(Locale.ROOT, "machine load average (1 min) at the start / end: %.1f / %.1f%n", load,
        Harness.loadAverage());
    if (PROFILE != null) {
      profiler("stop,file=" + PROFILE + ",collapsed");
      TelemetryProfile.read(java.nio.file.Path.of(PROFILE), INTERVAL).print(System.out,
          (long) blocks * ops * WORKLOADS.length, "cost-b-micrometer", "cost-b-none");
    }
    System.exit(0);
  }

  /** One setting: its connection and statements, used only on its own thread. */
  private static final class Setting implements AutoCloseable {
    private final ExecutorService thread;
    private final Connection connection;
    private final PreparedStatement[] statements;

    Setting(BenchCluster cluster, String group, String name) throws Exception {
      this.thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "cost-" + group + "-" + name));
      String mode = name.equals("micrometer") ? "listeners" : name.equals("jmx-micrometer") ? "jmx" : name;
      String url = cluster.shardexUrl("cost-" + group + "-" + name + "-" + System.nanoTime()) + "&shardex.telemetry=" + mode;
      this.connection = thread.submit(() -> DriverManager.getConnection(url)).get();
      this.statements = new PreparedStatement[] {connection.prepareStatement(POINT), connection.prepareStatement(UPDATE)};
    }

    /** CPU µs and bytes per statement over one block of {@code ops}, on this setting's thread. */
    double[] block(int workload, int ops) throws Exception {
      return thread.submit(() -> {
        long b0 = THREADS.getCurrentThreadAllocatedBytes();
        long c0 = THREADS.getCurrentThreadCpuTime();
        run(statements[workload], workload, ops);
        return new double[] {(THREADS.getCurrentThreadCpuTime() - c0) / 1000.0 / ops,
            (THREADS.getCurrentThreadAllocatedBytes() - b0) / (double) ops};
      }).get();
    }

    @Override
    public void close() throws Exception {
      thread.submit(() -> {
        connection.close();
        return null;
      }).get();
      thread.shutdown();
    }
  }

  private static void compare(BenchCluster cluster, String group, String[] modes, int blocks, int ops) throws Exception {
    List<Setting> settings = new ArrayList<>();
    try {
      for (String mode : modes) {
        settings.add(new Setting(cluster, group, mode));
      }
      for (int w = 0; w < WORKLOADS.length; w++) {
        double[][] bytes = new double[modes.length][blocks];
        double[][] cpu = new double[modes.length][blocks];
        for (int round = -10; round < blocks; round++) { // 10 rounds to warm the JIT, not kept
          if (round == 0) {
            profile(true);
          }
          for (int k = 0; k < modes.length; k++) {
            int i = (k + Math.max(round, 0)) % modes.length;
            double[] used = settings.get(i).block(w, ops);
            if (round >= 0) {
              cpu[i][round] = used[0];
              bytes[i][round] = used[1];
            }
          }
        }
        profile(false);
        for (int i = 1; i < modes.length; i++) {
          System.out.printf(Locale.ROOT, "%-14s %-14s vs %-5s: %+8.1f B/op (%.1f vs %.1f), %+6.2f us CPU/op (%.2f vs %.2f)%n",
              WORKLOADS[w], modes[i], modes[0], medianDiff(bytes[i], bytes[0]), median(bytes[i]), median(bytes[0]),
              medianDiff(cpu[i], cpu[0]), median(cpu[i]), median(cpu[0]));
        }
      }
    } finally {
      for (Setting s : settings) {
        s.close();
      }
    }
  }

  /** Samples the measured rounds only: the first start begins the profile, later ones resume it. */
  private static void profile(boolean on) throws Exception {
    if (PROFILE == null) {
      return;
    }
    if (on) {
      profiler((profiling ? "resume" : "start") + ",event=cpu,interval=" + INTERVAL + ",threads");
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

  private static double medianDiff(double[] a, double[] b) {
    double[] d = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i] - b[i];
    }
    return median(d);
  }

  private static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
