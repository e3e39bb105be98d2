package dev.shardex.benchmarks;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The end-to-end harness: one 4-shard sandbox, three contenders in one process (Connector/J straight
 * to the owning shard, Shardex, ShardingSphere-JDBC), every workload at 1 and 8 threads in
 * alternating rounds, answers checked against direct before anything is timed. Then first-connection
 * times against growing catalogs and heap per cached directory entry.
 *
 * <p>Options (system properties): {@code bench.users} (10000), {@code bench.posts} (20),
 * {@code bench.rounds} (5), {@code bench.seconds} per round (0.6), {@code bench.warmupAll} (1.5 s per
 * variant and contender, one thread, before anything is timed), {@code bench.warmup} seconds per
 * contender and cell (0.3), {@code bench.threads} ("1,8"), {@code bench.workloads} (names of
 * {@link Workload}, all by default, "none" for start-up and memory only), {@code bench.contenders} (all), {@code bench.fresh} (true: also
 * the fresh-prepare variants), {@code bench.startup} / {@code bench.memory} (true),
 * {@code bench.out} (results directory), {@code bench.tag} (run name in file names),
 * {@code bench.shardexOptions} (extra URL options for the Shardex contender, for experiments),
 * {@code bench.connectorJ} (extra Connector/J options for all three contenders, for experiments),
 * {@code bench.freshJvmArgs} (JVM options of the fresh JVM the start-up benchmark launches).
 */
public final class Harness {
  private static final PrintStream OUT = System.out;

  private Harness() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    long started = System.nanoTime();
    Options o = Options.fromSystemProperties();
    int code = 0;
    try {
      run(o);
    } catch (AnswerCheck.WrongAnswer e) {
      OUT.println("ABORTED: " + e.getMessage());
      code = 2;
    }
    OUT.printf(Locale.ROOT, "%nHarness finished in %.0f s%n", (System.nanoTime() - started) / 1e9);
    System.exit(code); // the sandbox's shutdown hook stops the servers
  }

  private static void run(Options o) throws Exception {
    OUT.printf("Shardex benchmark harness: %d users x %d posts, 4 shards, %d round(s) x %.1f s, threads %s, Java %s, %d cores%n",
        o.users, o.posts, o.rounds, o.seconds, Arrays.toString(o.threads), System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
    long t0 = System.nanoTime();
    try (BenchCluster cluster = BenchCluster.start("bench", 4, o.users, o.posts)) {
      OUT.printf("sandbox up and directory initialised in %d ms%n", ms(t0));
      long placed = cluster.placeUsers(4);
      long loaded = cluster.loadRows();
      cluster.readOwners();
      OUT.printf("placed %d users with DirectoryStore.assign (u %% 4) in %d ms; loaded %d posts in %d ms%n", o.users, placed,
          (long) o.users * o.posts, loaded);

      List<String[]> cold = new ArrayList<>();
      List<Contender> contenders = new ArrayList<>();
      try {
        contenders.addAll(openContenders(cluster, o, cold));
        measureAll(cluster, o, contenders, cold);
      } finally {
        // Drivers first: their pools and directory pollers must not outlive the sandbox's servers.
        for (Contender c : contenders) {
          c.close();
        }
        dev.shardex.driver.ShardexDriver.shutdown();
      }
    }
  }

  private static void measureAll(BenchCluster cluster, Options o, List<Contender> contenders, List<String[]> cold)
      throws Exception {
    List<Report.Row> rows = List.of();
    Path results = Paths.get(o.out);
    if (!o.workloads.isEmpty()) {
      rows = Report.withRatios(workloads(cluster, o, contenders));
      OUT.println();
      OUT.println("Results: ops/s over all rounds; p50/p99 latency per operation; cpu = CPU time of the calling threads");
      OUT.println("per operation (the whole client-side cost of a single-shard statement; for scatter COUNT Shardex's and");
      OUT.println("ShardingSphere's fan-out threads are not in it); ×direct and ×SS = median over rounds of the per-round");
      OUT.println("throughput ratio. The scatter COUNT's direct row runs the query on one shard, a quarter of the data.");
      Report.printTable(rows, OUT);
      Path csv = results.resolve("harness-" + o.tag + ".csv");
      Path png = results.resolve("ratios-" + o.tag + ".png");
      Report.writeCsv(rows, csv);
      Report.writeChart(rows, png, o.tag);
      OUT.println("CSV: " + csv + "   chart: " + png);
    }

    List<StartupBenchmark.Sample> startup = List.of();
    if (o.startup) {
      OUT.println();
      OUT.println("First connection, JVM-cold (first of its kind in this JVM: class loading included):");
      for (String[] c : cold) {
        OUT.printf("  %-16s connect %8s ms, connect + first query %8s ms%n", c[0], c[1], c[2]);
      }
      OUT.println("First connection of a new Shardex driver instance (warm JVM), median of 3 (max):");
      startup = new StartupBenchmark(cluster).run(new int[] {10, 1_000, 10_000}, 3);
      StartupBenchmark.print(startup, OUT);
    }
    CacheMemory.Result memory = null;
    if (o.memory) {
      memory = CacheMemory.measure(cluster.store(), 1_000_000, 1L << 45);
      OUT.printf(Locale.ROOT, "%nMemory per cached directory entry: %.1f bytes (heap delta %.1f MB over %,d BIGINT keys)%n",
          memory.bytesPerEntry(), memory.heapDeltaBytes() / 1e6, memory.entries());
      CacheMemory.Result lookups = CacheMemory.measureLookups(cluster.store(), 1_000_000);
      OUT.printf(Locale.ROOT, "Memory per cached unique-lookup entry: %.1f bytes (heap delta %.1f MB over %,d 7-digit ids)%n",
          lookups.bytesPerEntry(), lookups.heapDeltaBytes() / 1e6, lookups.entries());
    }
    String summary = Targets.summary(rows, startup, memory) + String.format(Locale.ROOT,
        "  %-70s %4.1f / %.1f (%d cores)%n", "machine load average (1 min) at the start / end of the run", o.loadAtStart,
        loadAverage(), Runtime.getRuntime().availableProcessors());
    OUT.println();
    OUT.print(summary);
    Files.createDirectories(results);
    Files.writeString(results.resolve("summary-" + o.tag + ".txt"), summary, StandardCharsets.UTF_8);
  }

  /** Checks every contender's answers, warms the JIT, then times every cell; the rows have no ratios yet. */
  private static List<Report.Row> workloads(BenchCluster cluster, Options o, List<Contender> contenders) throws Exception {
    try (Runner runner = new Runner(o.users, contenders, maxOf(o.threads))) {
      check(cluster, runner, contenders, o);
      primeKeyCaches(runner, contenders, o);
      warmUp(runner, contenders, o);
      return measure(runner, contenders, o);
    }
  }

  private static List<Contender> openContenders(BenchCluster cluster, Options o, List<String[]> cold) throws Exception {
    List<Contender> all = new ArrayList<>();
    { // direct always runs: it is the reference every check and ratio needs
      long t = System.nanoTime();
      try (Connection c = cluster.connectShard(cluster.owner(1))) {
        double connect = (System.nanoTime() - t) / 1e6;
        firstQuery(c);
        cold.add(new String[] {"direct", fmt(connect), fmt((System.nanoTime() - t) / 1e6)});
      }
      all.add(new Contender.Direct(cluster));
    }
    if (o.wants(Contender.SHARDEX)) {
      long t = System.nanoTime();
      try (Connection c = java.sql.DriverManager.getConnection(cluster.shardexUrl("cold"))) {
        double connect = (System.nanoTime() - t) / 1e6;
        firstQuery(c);
        cold.add(new String[] {"shardex", fmt(connect), fmt((System.nanoTime() - t) / 1e6)});
      }
      all.add(new Contender.Shardex(cluster.shardexUrl("bench") + o.shardexOptions));
    }
    if (o.wants(Contender.SHARDING_SPHERE)) {
      long t = System.nanoTime();
      Contender.ShardingSphere ss = new Contender.ShardingSphere(cluster);
      Connection[] c = ss.connect();
      double connect = (System.nanoTime() - t) / 1e6;
      firstQuery(c[0]);
      cold.add(new String[] {"shardingsphere", fmt(connect), fmt((System.nanoTime() - t) / 1e6)});
      c[0].close();
      all.add(ss);
    }
    return all;
  }

  private static void firstQuery(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(Session.SQL[Session.POINT])) {
      ps.setLong(1, 1);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new AnswerCheck.WrongAnswer("the first query found no user 1");
        }
      }
    }
  }

  private static void check(BenchCluster cluster, Runner runner, List<Contender> contenders, Options o) throws Exception {
    long t = System.nanoTime();
    List<Long> sample = new ArrayList<>(List.of(0L, 1L, 2L, 3L, (long) o.users - 1));
    SplittableRandom r = new SplittableRandom(7);
    while (sample.size() < 24) {
      sample.add((long) r.nextInt(o.users));
    }
    Contender direct = contenders.get(0);
    AnswerCheck check = new AnswerCheck(cluster, runner.session(direct, 0));
    try {
      for (Contender c : contenders.subList(1, contenders.size())) {
        int n = check.check(runner.session(c, 0), sample);
        OUT.printf("answers checked: %s agrees with direct on %d answers (%d sample users, prepared and fresh)%n",
            c.name(), n, sample.size());
      }
    } finally {
      check.close();
    }
    OUT.printf("checks took %d ms%n", ms(t));
  }

  /**
   * Steady state for Shardex: its directory key cache (1,000,000 entries by default) holds every
   * user, as it would in a long-running application; without this the first timed touch of each
   * user pays a directory round trip. Direct knows its owners up front; ShardingSphere computes them.
   */
  private static void primeKeyCaches(Runner runner, List<Contender> contenders, Options o) throws Exception {
    long t = System.nanoTime();
    for (Contender c : contenders) {
      if (c.name().equals(Contender.SHARDEX)) {
        Session s = runner.session(c, 0);
        for (long user = 0; user < o.users; user++) {
          s.pointSelect(user, false);
        }
      }
    }
    OUT.printf("Shardex key cache primed with %d users in %d ms%n", o.users, ms(t));
  }

  /** One pass over every variant at one thread, so the JIT has compiled all contenders' paths before timing. */
  private static void warmUp(Runner runner, List<Contender> contenders, Options o) throws Exception {
    long t = System.nanoTime();
    long nanos = (long) (o.warmupAll * 1e9);
    for (Variant v : o.variants()) {
      for (Contender c : contenders) {
        runner.round(c, v.workload, v.fresh, 1, nanos, 999);
      }
    }
    OUT.printf("JIT warm-up pass took %d ms%n", ms(t));
  }

  private static List<Report.Row> measure(Runner runner, List<Contender> contenders, Options o) throws Exception {
    List<Report.Row> rows = new ArrayList<>();
    long roundNanos = (long) (o.seconds * 1e9);
    long warmNanos = (long) (o.warmup * 1e9);
    for (int threads : o.threads) {
      for (Variant v : o.variants()) {
        List<List<Runner.Round>> rounds = new ArrayList<>();
        for (Contender c : contenders) {
          runner.round(c, v.workload, v.fresh, threads, warmNanos, 1_000);
          rounds.add(new ArrayList<>());
        }
        for (int round = 0; round < o.rounds; round++) {
          for (int i = 0; i < contenders.size(); i++) {
            int k = (i + round) % contenders.size(); // rotate who goes first
            rounds.get(k).add(runner.round(contenders.get(k), v.workload, v.fresh, threads, roundNanos, round));
          }
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-38s x%d:", v.label(), threads));
        for (int k = 0; k < contenders.size(); k++) {
          Report.Row row = Report.row(v.workload, v.fresh, threads, contenders.get(k).name(), rounds.get(k));
          rows.add(row);
          line.append(String.format(Locale.ROOT, "  %s %.0f ops/s", row.contender(), row.opsPerSecond()));
        }
        OUT.println(line);
      }
    }
    return rows;
  }

  /** The system's 1-minute load average: other builds on this shared machine inflate every CPU figure. */
  static double loadAverage() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static int maxOf(int[] a) {
    return Arrays.stream(a).max().orElse(1);
  }

  private static long ms(long since) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
  }

  private static String fmt(double ms) {
    return String.format(Locale.ROOT, "%.0f", ms);
  }

  /** A workload in prepared-once or fresh-prepare mode. */
  record Variant(Workload workload, boolean fresh) {
    String label() {
      return workload.label() + (fresh ? ", fresh prepare" : "");
    }
  }

  static final class Options {
    int users;
    int posts;
    int rounds;
    double seconds;
    double warmup;
    double warmupAll;
    int[] threads;
    List<Workload> workloads;
    List<String> contenders;
    boolean fresh;
    boolean startup;
    boolean memory;
    String out;
    String tag;
    /** Extra URL options for the Shardex contender (experiments), e.g. "&useServerPrepStmts=true". */
    String shardexOptions;
    /** The machine's load when the run started (see {@link #loadAverage}). */
    double loadAtStart = loadAverage();

    static Options fromSystemProperties() {
      Options o = new Options();
      o.users = Integer.getInteger("bench.users", 10_000);
      o.posts = Integer.getInteger("bench.posts", 20);
      o.rounds = Integer.getInteger("bench.rounds", 5);
      o.seconds = Double.parseDouble(System.getProperty("bench.seconds", "0.6"));
      o.warmup = Double.parseDouble(System.getProperty("bench.warmup", "0.3"));
      o.warmupAll = Double.parseDouble(System.getProperty("bench.warmupAll", "1.5"));
      o.threads = Arrays.stream(System.getProperty("bench.threads", "1,8").split(",")).mapToInt(s -> Integer.parseInt(s.trim()))
          .toArray();
      String w = System.getProperty("bench.workloads", "");
      o.workloads = w.isBlank() ? List.of(Workload.values()) : w.equals("none") ? List.of()
          : Arrays.stream(w.split(",")).map(s -> Workload.valueOf(s.trim().toUpperCase(Locale.ROOT))).toList();
      String c = System.getProperty("bench.contenders", "");
      o.contenders = c.isBlank() ? List.of(Contender.DIRECT, Contender.SHARDEX, Contender.SHARDING_SPHERE)
          : Arrays.stream(c.split(",")).map(String::trim).toList();
      o.fresh = Boolean.parseBoolean(System.getProperty("bench.fresh", "true"));
      o.startup = Boolean.parseBoolean(System.getProperty("bench.startup", "true"));
      o.memory = Boolean.parseBoolean(System.getProperty("bench.memory", "true"));
      o.out = System.getProperty("bench.out", "results");
      o.tag = System.getProperty("bench.tag", "latest");
      o.shardexOptions = System.getProperty("bench.shardexOptions", "");
      return o;
    }

    boolean wants(String contender) {
      return contenders.contains(contender);
    }

    List<Variant> variants() {
      List<Variant> v = new ArrayList<>();
      for (Workload w : workloads) {
        v.add(new Variant(w, false));
      }
      if (fresh) {
        for (Workload w : workloads) {
          if (w.routed()) {
            v.add(new Variant(w, true));
          }
        }
      }
      return v;
    }
  }
}
