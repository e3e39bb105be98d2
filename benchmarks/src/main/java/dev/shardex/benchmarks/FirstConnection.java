package dev.shardex.benchmarks;

import java.util.Locale;

/**
 * Run in a fresh JVM by {@link StartupBenchmark}: times Shardex's first connection and first query
 * there, class loading included, and prints "connectMs firstQueryMs cpuMs mainCpuMs": cpuMs is the
 * process's CPU time (all threads, JVM start-up included) when the first row was read, mainCpuMs the
 * main thread's (Linux only, else -1), figures that the machine's other load disturbs less than the
 * wall-clock ones; mainCpuMs is the critical path's own work, network waits excluded.
 */
public final class FirstConnection {
  private FirstConnection() {}

  public static void main(String[] args) throws Exception {
    double[] t = StartupBenchmark.firstConnection(args[0], Long.parseLong(args[1]));
    double mainCpuMs = threadCpuMs();
    long cpuMs = ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(-1L);
    System.out.println(String.format(Locale.ROOT, "%.1f %.1f %d %.0f", t[0], t[1], cpuMs, mainCpuMs));
    dev.shardex.driver.ShardexDriver.shutdown();
  }

  /** This thread's CPU time from /proc/thread-self/schedstat (nanoseconds on the CPU), or -1. */
  private static double threadCpuMs() {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/schedstat"));
      return Long.parseLong(stat.substring(0, stat.indexOf(' '))) / 1e6;
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
  }
}
