package dev.shardex.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The start-up measurement alone (no workloads, no ShardingSphere): a 4-shard sandbox with 100
 * users and {@code startup.tables} declared tables (10,000 by default), then {@code startup.runs}
 * fresh JVMs ({@link FirstConnection}, the driver's classpath only, extra JVM options from
 * {@code bench.freshJvmArgs}), each printing its first connection and first row; then the median
 * and the spread. With {@code startup.hold=FILE} it then writes the Shardex URL and the fresh
 * JVM's classpath to FILE (two lines) and keeps the sandbox up until killed, for runs by hand:
 * {@code java -cp "$(sed -n 2p FILE)" dev.shardex.benchmarks.FirstConnection "$(sed -n 1p FILE)" 7}.
 *
 * <p>{@code mvn -o -q -DskipTests -Pstartup -pl benchmarks -am verify}
 */
public final class StartupRun {
  private StartupRun() {}

  public static void main(String[] args) throws Exception {
    int tables = Integer.getInteger("startup.tables", 10_000);
    int runs = Integer.getInteger("startup.runs", 7);
    String hold = System.getProperty("startup.hold", "");
    try (BenchCluster cluster = BenchCluster.start("startup", 4, 100, 1)) {
      cluster.placeUsers(2);
      cluster.loadRows();
      cluster.readOwners();
      long declareMs = new StartupBenchmark(cluster).declareUpTo(tables);
      System.out.printf(Locale.ROOT, "%d tables declared in %d ms; Java %s, %d cores%n", tables, declareMs,
          System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
      String url = cluster.shardexUrl("startup-cold");
      double[] connect = new double[runs];
      double[] first = new double[runs];
      for (int i = 0; i < runs; i++) {
        double[] t = StartupBenchmark.inFreshJvm(url, 7);
        connect[i] = t[0];
        first[i] = t[1];
        System.out.printf(Locale.ROOT, "fresh JVM %d: connect %.1f ms, first row %.1f ms%n", i + 1, t[0], t[1]);
      }
      Arrays.sort(connect);
      Arrays.sort(first);
      System.out.printf(Locale.ROOT, "fresh JVM, %d runs: connect median %.0f ms (%.0f-%.0f), first row median %.0f ms (%.0f-%.0f)%n",
          runs, connect[runs / 2], connect[0], connect[runs - 1], first[runs / 2], first[0], first[runs - 1]);
      if (!hold.isEmpty()) {
        Files.writeString(Path.of(hold), url + "\n" + StartupBenchmark.driverOnlyClassPath() + "\n", StandardCharsets.UTF_8);
        System.out.println("holding the sandbox; URL and classpath in " + hold);
        Thread.sleep(Long.MAX_VALUE);
      }
    } finally {
      dev.shardex.driver.ShardexDriver.shutdown();
    }
    System.exit(0);
  }
}
