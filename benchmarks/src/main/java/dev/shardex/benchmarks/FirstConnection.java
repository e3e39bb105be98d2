package dev.shardex.benchmarks;

import java.util.Locale;

/**
 * Run in a fresh JVM by {@link StartupBenchmark}: times Shardex's first connection and first query
 * there, class loading included, and prints "connectMs firstQueryMs".
 */
public final class FirstConnection {
  private FirstConnection() {}

  public static void main(String[] args) throws Exception {
    double[] t = StartupBenchmark.firstConnection(args[0], Long.parseLong(args[1]));
    System.out.println(String.format(Locale.ROOT, "%.1f %.1f", t[0], t[1]));
    dev.shardex.driver.ShardexDriver.shutdown();
  }
}
