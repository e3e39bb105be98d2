package dev.shardex.benchmarks;

import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.TableDef;
import java.io.PrintStream;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * First-connection time of a new Shardex driver instance against a catalog of 10, 1,000 and 10,000
 * declared tables: {@code DriverManager.getConnection} (directory client, first poll, pools created
 * lazily) and then the first point select (table lookup, parse, first shard connection). Each new
 * {@code shardex.instance} gets its own directory client and caches, as a new JVM would; the JVM
 * itself is warm (its classes are loaded). Each level is also measured once in a fresh JVM
 * ({@link FirstConnection}) whose classpath holds only the driver and its dependencies, where class
 * loading and the interpreter dominate.
 */
final class StartupBenchmark {
  record Sample(int tables, long declareMs, double connectMs, double firstQueryMs, double connectMaxMs,
      double firstQueryMaxMs, double coldConnectMs, double coldFirstQueryMs) {}

  private final BenchCluster cluster;
  private int declared = 2; // users and posts

  StartupBenchmark(BenchCluster cluster) {
    this.cluster = cluster;
  }

  List<Sample> run(int[] levels, int repeats) throws Exception {
    List<Sample> out = new ArrayList<>();
    for (int level : levels) {
      long declareMs = declareUpTo(level);
      double[] connect = new double[repeats];
      double[] first = new double[repeats];
      for (int i = 0; i < repeats; i++) {
        double[] t = firstConnection(cluster.shardexUrl("startup-" + level + "-" + i), 1 + i);
        connect[i] = t[0];
        first[i] = t[1];
      }
      Arrays.sort(connect);
      Arrays.sort(first);
      double[] cold = inFreshJvm(cluster.shardexUrl("startup-cold-" + level), 7);
      out.add(new Sample(level, declareMs, connect[repeats / 2], first[repeats / 2], connect[repeats - 1],
          first[repeats - 1], cold[0], cold[1]));
    }
    return out;
  }

  /** Milliseconds to connect, then to run and read the first point select. */
  static double[] firstConnection(String url, long user) throws SQLException {
    long t0 = System.nanoTime();
    try (Connection c = DriverManager.getConnection(url)) {
      long t1 = System.nanoTime();
      try (PreparedStatement ps = c.prepareStatement(Session.SQL[Session.POINT])) {
        ps.setLong(1, user);
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            throw new IllegalStateException("user " + user + " not found at start-up");
          }
        }
      }
      long t2 = System.nanoTime();
      return new double[] {(t1 - t0) / 1e6, (t2 - t0) / 1e6};
    }
  }

  /** The same measurement in a new JVM (java.home, this classpath): nothing loaded, nothing compiled. */
  static double[] inFreshJvm(String url, long user) throws Exception {
    String extra = System.getProperty("bench.freshJvmArgs", ""); // e.g. a JFR recording of the cold start
    List<String> options = extra.isBlank() ? List.of() : List.of(extra.trim().split("\\s+"));
    return inFreshJvm(url, user, options, driverOnlyClassPath());
  }

  /**
   * {@link FirstConnection} in a new JVM with these options and class path: every figure it prints
   * (connect ms, first row ms, process CPU ms, main-thread CPU ms).
   */
  static double[] inFreshJvm(String url, long user, List<String> jvmOptions, String classPath) throws Exception {
    List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classPath, FirstConnection.class.getName(), url, Long.toString(user)));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("the fresh JVM failed: " + output);
    }
    // the figures' line: the last one made of numbers (a training run's CDS warnings come after it)
    String[] last = output.lines().filter(l -> l.matches("[0-9.]+( -?[0-9.]+)+")).reduce((a, b) -> b)
        .orElseThrow(() -> new IllegalStateException("no figures from the fresh JVM: " + output)).split(" ");
    double[] figures = new double[last.length];
    for (int i = 0; i < last.length; i++) {
      figures[i] = Double.parseDouble(last[i]);
    }
    return figures;
  }

  /**
   * This classpath cut down to what an application using Shardex has: the driver and its
   * dependencies. DriverManager initialises every java.sql.Driver on the classpath on first use,
   * and ShardingSphere's tree brings several (Calcite, Avatica, H2) that would be timed too.
   */
  static String driverOnlyClassPath() {
    List<String> keep = List.of("classes", "shardex-driver", "shardex-directory", "shardex-vocabulary", "mysql-connector-j", "HikariCP",
        "caffeine", "jsqlparser", "slf4j-api", "slf4j-simple", "jspecify");
    List<String> out = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      String name = Paths.get(entry).getFileName().toString();
      if (keep.stream().anyMatch(name::startsWith)) {
        out.add(entry);
      }
    }
    return String.join(java.io.File.pathSeparator, out);
  }

  /** Declares bench_t_N tables (SHARDED by user_id) with DirectoryStore.declareTable until the catalog holds {@code total}. */
  long declareUpTo(int total) throws Exception {
    long start = System.nanoTime();
    int from = declared;
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = from + t;
        parts.add(pool.submit(() -> {
          for (int n = first; n < total; n += threads) {
            cluster.store().declareTable(TableDef.sharded(String.format(Locale.ROOT, "bench_t_%05d", n), KeySpace.DEFAULT,
                "user_id"));
          }
          return null;
        }));
      }
      for (Future<?> f : parts) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    declared = Math.max(declared, total);
    int inCatalog = cluster.store().tables().size();
    if (inCatalog != total) {
      throw new IllegalStateException("the catalog holds " + inCatalog + " tables, expected " + total);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  static void print(List<Sample> samples, PrintStream out) {
    out.printf("%-16s %11s %23s %23s %26s%n", "tables declared", "declare ms", "warm JVM: connect ms",
        "+ first query ms", "fresh JVM: connect / +query");
    for (Sample s : samples) {
      out.printf(Locale.ROOT, "%-16d %11d %23s %23s %26s%n", s.tables(), s.declareMs(),
          String.format(Locale.ROOT, "%.1f (max %.1f)", s.connectMs(), s.connectMaxMs()),
          String.format(Locale.ROOT, "%.1f (max %.1f)", s.firstQueryMs(), s.firstQueryMaxMs()),
          String.format(Locale.ROOT, "%.0f / %.0f ms", s.coldConnectMs(), s.coldFirstQueryMs()));
    }
  }
}
