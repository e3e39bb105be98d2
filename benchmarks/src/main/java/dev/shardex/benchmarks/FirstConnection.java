package dev.shardex.benchmarks;

import java.util.Locale;

/**
 * Run in a fresh JVM by {@link StartupBenchmark}: times Shardex's first connection and first query
 * there, class loading included, and prints "connectMs firstQueryMs cpuMs": cpuMs is the process's
 * CPU time (all threads, JVM start-up included) when the first row was read, a figure that the
 * machine's other load disturbs less than the wall-clock ones.
 */
public final class FirstConnection {
  private FirstConnection() {}

  public static void main(String[] args) throws Exception {
    double[] t = StartupBenchmark.firstConnection(args[0], Long.parseLong(args[1]));
    long cpuMs = ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(-1L);
    System.out.println(String.format(Locale.ROOT, "%.1f %.1f %d", t[0], t[1], cpuMs));
    dev.shardex.driver.ShardexDriver.shutdown();
  }
}
