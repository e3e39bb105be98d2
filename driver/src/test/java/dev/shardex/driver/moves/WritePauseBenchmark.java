package dev.shardex.driver.moves;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveRecord;
import dev.shardex.directory.move.MoveStep;
import dev.shardex.directory.move.Mover;
import dev.shardex.driver.ShardexDriver;
import dev.shardex.driver.moves.MoveTestSupport.Tally;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The write pause of an online move (issue 4, "write pause"): a user with 10,000 rows is moved
 * while 4 threads keep writing to that user through the driver. Prints the latency of those writes
 * before the move and during it (p50, p99, max), the time they waited (latency minus the median
 * latency before the move), and the move's duration step by step; {@code pause.runs} times (5),
 * then the spread. Target (issue 14): p99 wait <= 200 ms in every run.
 *
 * <p>Not part of the test run (surefire includes *Test classes only). Run it with
 * <pre>
 * mvn -o -q -pl driver test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.shardex.driver.moves.WritePauseBenchmark
 * </pre>
 * (after {@code mvn -o -q install -DskipTests} at the root), or as a test on request:
 * {@code mvn -o -q test -pl driver -am -Dtest=WritePauseBenchmark -Dsurefire.failIfNoSpecifiedTests=false}. System properties: {@code pause.runs} (5), {@code pause.warmup} (1 uncounted
 * run first), {@code pause.rows}
 * (10000), {@code pause.writers} (4), {@code pause.intervalMs} (4: each thread starts a write every 4 ms),
 * {@code pause.niceRatio} (0: {@code MoveOptions.niceRatio}; a list such as 0,1 is used one per run in turn),
 * {@code pause.cliConnector} (true: the mover's shard connections are opened as the CLI opens them,
 * with rewriteBatchedStatements=true; false: the sandbox's plain connections).
 */
public final class WritePauseBenchmark {
  static final String NAME = "pause";
  static final int SHARDS = 2;
  static final String URL = "jdbc:shardex:sandbox:" + NAME + "?shards=" + SHARDS + "&shardex.instance=bench";
  static final long USER = 42;
  static final int ROWS = Integer.getInteger("pause.rows", 10_000);
  static final int WRITERS = Integer.getInteger("pause.writers", 4);
  static final long INTERVAL_MS = Long.getLong("pause.intervalMs", 4);
  /** Shard connections as the CLI opens them (rewriteBatchedStatements=true), else the sandbox's plain ones. */
  static final boolean CLI_CONNECTOR = Boolean.parseBoolean(System.getProperty("pause.cliConnector", "true"));
  /**
   * The nice ratios of the pre-copy and the source delete ({@code MoveOptions.niceRatio}, {@code --nice-ratio}), one
   * per run in turn: "0,1" alternates full speed and ratio 1 in one process, so the two are compared at the same load.
   */
  static final double[] NICE_RATIOS = java.util.Arrays.stream(System.getProperty("pause.niceRatio", "" + MoveOptions.NICE_RATIO)
      .split(",")).mapToDouble(Double::parseDouble).toArray();
  static final long BASELINE_MS = 3_000;
  static final long AFTER_MS = 2_000;

  /**
   * One write. Writers run open-loop: each has a schedule (one write every {@code pause.intervalMs})
   * and a write that starts late because the previous one was held up counts the delay too, so a
   * paused thread does not hide the writes it would have sent (no coordinated omission).
   *
   * @param intended when the schedule wanted the write to start
   * @param start when it started
   * @param end when it returned
   */
  record Sample(long intended, long start, long end, boolean ok) {
    /** Latency as a client arriving on schedule sees it. */
    long nanos() {
      return end - intended;
    }

    /** Service time of the statement alone. */
    long serviceNanos() {
      return end - start;
    }
  }

  /** Also runnable as a test, on request only: {@code mvn -o test -pl driver -Dtest=WritePauseBenchmark}. */
  @Test
  @Tag("benchmark")
  void writePause() throws Exception {
    System.out.println(runs());
  }

  public static void main(String[] args) throws Exception {
    try {
      System.out.println(runs());
    } finally {
      ShardexDriver.shutdown();
      SandboxCluster.shared(NAME, SHARDS).close();
    }
  }

  /** One run's figures, in milliseconds. */
  record Run(double p50, double p99, double max, long frozenMs, double niceRatio) {}

  /** {@code pause.runs} runs (5), each printed, then the spread of their p99 and max waits. */
  static String runs() throws Exception {
    int runs = Integer.getInteger("pause.runs", 5);
    List<Run> results = new ArrayList<>();
    StringBuilder out = new StringBuilder();
    int warmups = Integer.getInteger("pause.warmup", 1);
    for (int i = 1; i <= warmups; i++) {
      run(new ArrayList<>(), NICE_RATIOS[0]); // a mover that has run before (JIT-compiled), as a long-lived mover or rebalance is
      out.append("\n(warm-up run ").append(i).append(" not counted)");
    }
    for (int i = 1; i <= runs; i++) {
      double ratio = NICE_RATIOS[(i - 1) % NICE_RATIOS.length];
      out.append("\n---- run ").append(i).append(" of ").append(runs).append(", nice ratio ").append(ratio).append(run(results, ratio));
    }
    out.append(String.format("%n==== Spread over %d runs (%d-row user, %d writers; after %d warm-up run(s)) ====%n", runs, ROWS,
        WRITERS, warmups));
    for (int i = 0; i < results.size(); i++) {
      Run r = results.get(i);
      out.append(String.format("run %d (nice ratio %s): waited p50 %.1f ms, p99 %.1f ms, max %.1f ms; key FROZEN %d ms%n", i + 1,
          r.niceRatio(), r.p50(), r.p99(), r.max(), r.frozenMs()));
    }
    double worstP99 = results.stream().mapToDouble(Run::p99).max().orElse(0);
    out.append(String.format("p99 from %.1f to %.1f ms, max up to %.1f ms (target p99 <= %d ms in every run: %s)%n",
        results.stream().mapToDouble(Run::p99).min().orElse(0), worstP99, results.stream().mapToDouble(Run::max).max().orElse(0),
        TARGET_MS, worstP99 <= TARGET_MS ? "met" : "MISSED"));
    return out.toString();
  }

  static final long TARGET_MS = 200;

  static String run(List<Run> results, double niceRatio) throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared(NAME, SHARDS);
    seed();
    try (HikariDataSource pool = MoveTestSupport.directoryPool(sandbox, "pause-directory", 8)) {
      DirectoryStore store = MoveTestSupport.store(pool);
      int from = store.lookup(KeySpace.DEFAULT, Long.toString(USER)).shardId();
      int to = (from + 1) % SHARDS;
      Map<MoveStep, Long> stepAt = new EnumMap<>(MoveStep.class);
      Map<MoveStep, String> detailAt = new EnumMap<>(MoveStep.class);
      Mover mover = new Mover(store, CLI_CONNECTOR ? MoveTestSupport.cliLikeConnector(sandbox) : MoveTestSupport.connector(sandbox),
          MoveOptions.defaults().withNiceRatio(niceRatio), FaultHook.NONE)
          .onStep(m -> {
            stepAt.put(m.step(), System.nanoTime());
            detailAt.put(m.step(), m.detail());
          });

      AtomicBoolean stop = new AtomicBoolean();
      Tally failures = new Tally();
      List<List<Sample>> perThread = new ArrayList<>();
      ExecutorService threads = Executors.newFixedThreadPool(WRITERS);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < WRITERS; t++) {
        List<Sample> samples = new ArrayList<>();
        perThread.add(samples);
        int thread = t;
        futures.add(threads.submit(() -> {
          write(thread, samples, stop, failures);
          return null;
        }));
      }
      MovePhaseProbe probe = new MovePhaseProbe(sandbox, SHARDS);
      Thread.sleep(BASELINE_MS);
      long moveStart = System.nanoTime();
      MoveRecord moved = mover.move(KeySpace.DEFAULT, Long.toString(USER), to);
      long moveEnd = System.nanoTime();
      Thread.sleep(AFTER_MS);
      stop.set(true);
      probe.close();
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
      threads.shutdown();

      List<Sample> all = perThread.stream().flatMap(List::stream).toList();
      long beforeEnd = moveStart - TimeUnit.MILLISECONDS.toNanos(200);
      long[] before = micros(all, s -> s.intended() < beforeEnd, Sample::nanos);
      long[] beforeService = micros(all, s -> s.intended() < beforeEnd, Sample::serviceNanos);
      long[] during = micros(all, s -> s.intended() >= moveStart && s.intended() < moveEnd, Sample::nanos);
      long[] duringService = micros(all, s -> s.intended() >= moveStart && s.intended() < moveEnd, Sample::serviceNanos);
      long baselineMedian = MoveTestSupport.percentile(sorted(before), 50);
      long[] waited = sorted(Arrays.stream(during).map(us -> Math.max(0, us - baselineMedian)).toArray());
      Long frozen = stepAt.get(MoveStep.FROZEN);
      Long flipped = stepAt.get(MoveStep.FLIPPED);
      long[] frozenWindow = frozen == null || flipped == null ? new long[0]
          : micros(all, s -> s.intended() >= frozen && s.intended() < flipped, Sample::nanos);
      long onNew = count(sandbox, to);
      long onOld = count(sandbox, from);
      StringBuilder out = new StringBuilder("\n==== Write pause of a moving user ====\n");
      out.append(String.format("user %d: %d rows (plus the benchmark's inserts), moved shard %d -> %d while %d threads "
          + "wrote to it through the driver, each starting a write every %d ms (90%% UPDATE, 10%% INSERT)%n", USER, ROWS, from,
          to, WRITERS, INTERVAL_MS));
      out.append(String.format("move: %s in %d ms (Mover API, default MoveOptions but the nice ratio " + niceRatio + ", shard connections %s; drivers poll every 100 ms, every 5 ms while a move is under way)%n",
          moved.step(), ms(moveEnd - moveStart), CLI_CONNECTOR ? "as the CLI's (rewriteBatchedStatements=true)" : "plain"));
      out.append("  pre-copy and catch-up: ").append(detailAt.get(MoveStep.PRECOPIED)).append(System.lineSeparator());
      out.append("  the move's last word: ").append(moved.detail()).append(System.lineSeparator());
      out.append("  step reached (+ms after the previous one): ");
      long prev = moveStart;
      for (Map.Entry<MoveStep, Long> e : stepAt.entrySet()) {
        out.append(e.getKey()).append(" +").append(ms(e.getValue() - prev)).append(' ');
        prev = e.getValue();
      }
      out.append(String.format("%n  (key FROZEN -> FLIPPED: %d ms)%n", frozen == null || flipped == null ? -1 : ms(flipped - frozen)));
      out.append(String.format("latency before the move (from scheduled start):  %s%n", MoveTestSupport.latencySummary(before)));
      out.append(String.format("latency during the move (from scheduled start):  %s%n", MoveTestSupport.latencySummary(during)));
      out.append(String.format("  of which scheduled while the key was FROZEN:   %s%n", MoveTestSupport.latencySummary(frozenWindow)));
      out.append(String.format("  (statement service time alone: before %s; during %s)%n", MoveTestSupport.latencySummary(beforeService),
          MoveTestSupport.latencySummary(duringService)));
      boolean met = MoveTestSupport.percentile(waited, 99) <= TARGET_MS * 1_000;
      results.add(new Run(MoveTestSupport.percentile(waited, 50) / 1000.0, MoveTestSupport.percentile(waited, 99) / 1000.0,
          waited.length == 0 ? 0 : waited[waited.length - 1] / 1000.0, frozen == null || flipped == null ? -1 : ms(flipped - frozen),
          niceRatio));
      out.append(String.format("WAITED (latency - %.1f ms, the median before the move), writes scheduled during the move: "
          + "p50 = %.1f ms, p99 = %.1f ms, max = %.1f ms  (target p99 <= " + TARGET_MS + " ms: %s)%n", baselineMedian / 1000.0,
          MoveTestSupport.percentile(waited, 50) / 1000.0, MoveTestSupport.percentile(waited, 99) / 1000.0,
          waited.length == 0 ? 0 : waited[waited.length - 1] / 1000.0, met ? "met" : "MISSED"));
      out.append(slowestByPhase(all, moveStart, moveEnd, baselineMedian, stepAt));
      out.append(probe.report(all, moveStart, moveEnd, MoveTestSupport.percentile(sorted(during), 99) * 1_000));
      out.append(String.format("writes: %d acknowledged, failed %s%n", all.stream().filter(Sample::ok).count(), failures));
      out.append(String.format("rows of user %d now: %d on shard %d, %d on shard %d%n", USER, onNew, to, onOld, from));
      if (moved.step() != MoveStep.DONE || onOld != 0 || onNew < ROWS) {
        throw new AssertionError("the move did not end cleanly:" + out);
      }
      return out.toString();
    }
  }

  /** A fresh table with the user's rows, and some other users beside it. */
  static void seed() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS pause_rows");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE pause_rows (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, "
          + "v INT NOT NULL, note VARCHAR(100), at DATETIME(6), KEY (user_id))");
      for (long user = 1; user <= 20; user++) {
        insertRows(s, user, user * 1_000_000, 100);
      }
      insertRows(s, USER, 0, ROWS);
    }
  }

  private static void insertRows(Statement s, long user, long firstId, int rows) throws SQLException {
    for (int done = 0; done < rows; ) {
      int n = Math.min(500, rows - done);
      StringBuilder sql = new StringBuilder("INSERT INTO pause_rows (id, user_id, v, note, at) VALUES ");
      for (int i = 0; i < n; i++) {
        long id = firstId + done + i;
        sql.append(i == 0 ? "" : ", ").append('(').append(id).append(", ").append(user).append(", 0, 'row ").append(id)
            .append(" of a user being moved', NOW(6))");
      }
      s.executeUpdate(sql.toString());
      done += n;
    }
  }

  /** Updates a random row of the user (90%) or inserts a new one (10%), on schedule, until told to stop. */
  private static void write(int thread, List<Sample> samples, AtomicBoolean stop, Tally failures) throws Exception {
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    long nextId = 100_000_000L * (thread + 1);
    long interval = TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS);
    try (Connection c = DriverManager.getConnection(URL);
        PreparedStatement update = c.prepareStatement("UPDATE pause_rows SET v = v + 1 WHERE id = ? AND user_id = ?");
        PreparedStatement insert = c.prepareStatement(
            "INSERT INTO pause_rows (id, user_id, v, note, at) VALUES (?, ?, 0, 'written during the move', NOW(6))")) {
      long next = System.nanoTime() + rnd.nextLong(interval); // threads out of phase
      while (!stop.get()) {
        long wait = next - System.nanoTime();
        if (wait > 0) {
          java.util.concurrent.locks.LockSupport.parkNanos(wait);
        }
        long intended = next;
        next += interval;
        PreparedStatement ps;
        if (rnd.nextInt(10) == 0) {
          ps = insert;
          ps.setLong(1, nextId++);
        } else {
          ps = update;
          ps.setLong(1, rnd.nextInt(ROWS));
        }
        ps.setLong(2, USER);
        long t0 = System.nanoTime();
        boolean ok;
        try {
          ps.executeUpdate();
          ok = true;
        } catch (SQLException e) {
          failures.add(MoveTestSupport.errorId(e));
          ok = false;
        }
        samples.add(new Sample(intended, t0, System.nanoTime(), ok));
      }
    }
  }

  /**
   * Where the slowest 1% of the writes scheduled during the move were scheduled: in which step of
   * the move (the step last reached at their intended start), so that a tail is pinned on the
   * freeze, the catch-up, the trigger DDL or the source delete rather than guessed.
   */
  private static String slowestByPhase(List<Sample> all, long moveStart, long moveEnd, long baselineMicros,
      Map<MoveStep, Long> stepAt) {
    List<Sample> during = new ArrayList<>(all.stream().filter(Sample::ok)
        .filter(s -> s.intended() >= moveStart && s.intended() < moveEnd).toList());
    during.sort((a, b) -> Long.compare(b.nanos(), a.nanos()));
    int n = Math.max(1, during.size() / 100);
    Map<String, int[]> byPhase = new java.util.LinkedHashMap<>();
    for (Sample s : during.subList(0, Math.min(n, during.size()))) {
      String phase = "move started";
      for (Map.Entry<MoveStep, Long> e : stepAt.entrySet()) {
        if (e.getValue() <= s.intended()) {
          phase = "after " + e.getKey();
        }
      }
      int[] c = byPhase.computeIfAbsent(phase, k -> new int[2]);
      c[0]++;
      c[1] = (int) Math.max(c[1], s.nanos() / 1_000_000 - baselineMicros / 1_000);
    }
    StringBuilder out = new StringBuilder("  slowest 1% of those writes (" + n + ") by the step last reached when scheduled: ");
    byPhase.forEach((phase, c) -> out.append(phase).append(' ').append(c[0]).append(" (waited up to ").append(c[1])
        .append(" ms); "));
    return out.append(System.lineSeparator()).toString();
  }

  private static long count(SandboxCluster sandbox, int shard) throws SQLException {
    try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pause_rows WHERE user_id = " + USER)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long[] micros(List<Sample> samples, java.util.function.Predicate<Sample> which,
      java.util.function.ToLongFunction<Sample> nanos) {
    return samples.stream().filter(Sample::ok).filter(which).mapToLong(s -> nanos.applyAsLong(s) / 1_000).toArray();
  }

  private static long[] sorted(long[] values) {
    long[] copy = values.clone();
    Arrays.sort(copy);
    return copy;
  }

  private static long ms(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }
}
