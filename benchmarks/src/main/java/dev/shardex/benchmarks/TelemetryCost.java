package dev.shardex.benchmarks;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Arrays;
import java.util.Locale;

/**
 * What telemetry costs a single-shard statement, measured on the calling thread (a one-shard
 * statement runs entirely there): bytes allocated and CPU time per execution, with
 * shardex.telemetry=none, jmx (the default, with the slow-statement log), and shardex-micrometer on
 * a SimpleMeterRegistry (shardex.telemetry=listeners). The settings take turns in blocks, so
 * machine load hits them alike; each figure is the median over blocks of the difference to
 * {@code none}. Allocation per thread does not depend on load; CPU time does, somewhat.
 *
 * <p>{@code mvn -q -o -Dmaven.test.skip=true -Pbench -pl benchmarks -am verify -Dbench.skipJmh=true
 * -Dbench.main=dev.shardex.benchmarks.TelemetryCost}; options {@code cost.blocks} (30),
 * {@code cost.ops} per block (2000).
 */
public final class TelemetryCost {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final int USERS = 256;
  private static final String POINT = "SELECT user_id, name, email, visits FROM users WHERE user_id = ?";
  private static final String UPDATE = "UPDATE users SET visits = visits + 1 WHERE user_id = ?";

  private TelemetryCost() {}

  public static void main(String[] args) throws Exception {
    int blocks = Integer.getInteger("cost.blocks", 30);
    int ops = Integer.getInteger("cost.ops", 2_000);
    double load = Harness.loadAverage();
    try (BenchCluster cluster = BenchCluster.start("telemetry-cost", 4, USERS, 1)) {
      cluster.placeUsers(1);
      cluster.loadRows();
      // the Micrometer listener applies to every cluster that takes listeners: jmx's too, so jmx
      // is measured before it is installed, and micrometer against none after
      compare(cluster, new String[] {"none", "jmx"}, blocks, ops);
      dev.shardex.micrometer.ShardexMetrics.install(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
      compare(cluster, new String[] {"none", "listeners"}, blocks, ops);
      dev.shardex.driver.ShardexDriver.shutdown(); // before the servers stop
    }
    System.out.printf(Locale.ROOT, "machine load average (1 min) at the start / end: %.1f / %.1f%n", load,
        Harness.loadAverage());
    System.exit(0);
  }

  private static void compare(BenchCluster cluster, String[] modes, int blocks, int ops) throws Exception {
    Connection[] c = new Connection[modes.length];
    PreparedStatement[][] ps = new PreparedStatement[modes.length][];
    for (int i = 0; i < modes.length; i++) {
      String instance = "cost-" + modes[i] + "-" + System.nanoTime();
      c[i] = DriverManager.getConnection(cluster.shardexUrl(instance) + "&shardex.telemetry=" + modes[i]);
      ps[i] = new PreparedStatement[] {c[i].prepareStatement(POINT), c[i].prepareStatement(UPDATE)};
    }
    String[] names = {"point select", "update by key"};
    for (int w = 0; w < 2; w++) {
      double[][] bytes = new double[modes.length][blocks];
      double[][] cpu = new double[modes.length][blocks];
      for (int round = -10; round < blocks; round++) { // 10 rounds to warm the JIT, not kept
        for (int k = 0; k < modes.length; k++) {
          int i = (k + Math.max(round, 0)) % modes.length;
          long b0 = THREADS.getCurrentThreadAllocatedBytes();
          long c0 = THREADS.getCurrentThreadCpuTime();
          run(ps[i][w], w, ops);
          if (round >= 0) {
            cpu[i][round] = (THREADS.getCurrentThreadCpuTime() - c0) / 1000.0 / ops;
            bytes[i][round] = (THREADS.getCurrentThreadAllocatedBytes() - b0) / (double) ops;
          }
        }
      }
      for (int i = 1; i < modes.length; i++) {
        System.out.printf(Locale.ROOT, "%-14s %-10s vs %-5s: %+8.1f B/op (%.1f vs %.1f), %+6.2f us CPU/op (%.2f vs %.2f)%n",
            names[w], modes[i].equals("listeners") ? "micrometer" : modes[i], modes[0], medianDiff(bytes[i], bytes[0]),
            median(bytes[i]), median(bytes[0]), medianDiff(cpu[i], cpu[0]), median(cpu[i]), median(cpu[0]));
      }
    }
    for (Connection conn : c) {
      conn.close();
    }
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
