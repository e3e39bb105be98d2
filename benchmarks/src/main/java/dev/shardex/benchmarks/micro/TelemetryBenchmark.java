package dev.shardex.benchmarks.micro;

import com.zaxxer.hikari.HikariPoolMXBean;
import dev.shardex.directory.DirectoryStats;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.driver.events.ClusterEvents;
import dev.shardex.driver.events.ClusterView;
import dev.shardex.driver.events.ShardexTelemetry;
import dev.shardex.driver.events.StatementTrace;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.sql.RouteTemplate;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The telemetry a one-shard statement sets off, alone (no server: the events the pipeline and
 * the shard lease send, in their order): statement begins, is routed, takes and gives back one
 * shard connection, ends; with shardex-micrometer (micrometer: shardex.telemetry=listeners;
 * jmx-micrometer: the default with it installed) also what HikariCP tells the shard pool's
 * metrics tracker around the borrow (a clock read and the acquire time, a clock read and the usage
 * time, as its MetricsTrackerDelegate does). {@code none} is shardex.telemetry=none, {@code jmx} the default (the
 * cluster's MBean counters and the slow-statement log), {@code micrometer} shardex-micrometer on a
 * SimpleMeterRegistry with the slow log (shardex.telemetry=listeners), {@code empty} a registered
 * listener that hears statement and shard call ends and does nothing with them (the driver's own
 * work for a listener like shardex-micrometer: the trace, the clock reads that time statements and
 * calls; shardex.telemetry=listeners, with the slow log). Run with {@code -prof gc}.
 * The end-to-end figures (a statement against a real shard, per telemetry setting) are
 * {@code ExecutionBenchmark}'s and {@code TelemetryCost}'s.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
@State(Scope.Benchmark)
public class TelemetryBenchmark {
  @Param({"none", "jmx", "micrometer", "jmx-micrometer", "empty"})
  public String telemetry;
  /** Whether {@link #start} registers shardex-micrometer itself (main registers it once for several settings). */
  private boolean registers = true;

  private static final String SQL = "SELECT user_id, name FROM users WHERE user_id = ?";
  private ClusterEvents events;
  private final Connection session = new Connection();
  private final Shard shard = new Shard(1, "jdbc:mysql://127.0.0.1:3306/shard1", ShardStatus.ONLINE, 1.0, 0);
  private final Object lease = new Object();
  private RouteTemplate template;
  private AutoCloseable registration;
  /** The shard pool's metrics tracker the listeners installed, or null (HikariCP then tracks nothing). */
  private com.zaxxer.hikari.metrics.IMetricsTracker tracker;

  /** A logical connection's slot for its running statement, as ShardSession keeps it. */
  static final class Connection implements ClusterEvents.Statements {
    private StatementTrace trace;
    private final java.util.concurrent.atomic.AtomicReference<StatementTrace> running =
        new java.util.concurrent.atomic.AtomicReference<>();

    @Override
    public StatementTrace running() {
      return running.get();
    }

    @Override
    public void running(StatementTrace t) {
      running.lazySet(t); // as ShardSession: a release store
    }

    @Override
    public StatementTrace trace(ClusterEvents e) {
      if (trace == null) {
        trace = new StatementTrace(e, this);
      }
      return trace;
    }

    @Override
    public StatementTrace traced() {
      return trace;
    }
  }

  /** A 4-shard cluster as telemetry sees it. */
  static final class FourShards implements ClusterView {
    private static final Set<Integer> SHARDS = Set.of(0, 1, 2, 3);

    @Override
    public String instance() {
      return "bench";
    }

    @Override
    public String name() {
      return "bench-c1";
    }

    @Override
    public String dbSystem() {
      return "mariadb";
    }

    @Override
    public Set<Integer> shardIds() {
      return SHARDS;
    }

    @Override
    public String serverAddress(int shard) {
      return "127.0.0.1:3306";
    }

    @Override
    public String poolName(int shard) {
      return "shardex-bench-c1-shard-" + shard;
    }

    @Override
    public HikariPoolMXBean pool(int shard) {
      return null;
    }

    @Override
    public DirectoryStats directory() {
      return new DirectoryStats(new DirectoryStats.Keys(0, 0, 0), 0, 0, 0);
    }
  }

  @Setup(Level.Trial)
  public void start() throws Exception {
    template = new dev.shardex.driver.sql.TemplateCache(100).plain("SELECT user_id, name FROM users WHERE user_id = 1")
        .template();
    if (telemetry.endsWith("micrometer") && registers) {
      registration = micrometer();
    } else if (telemetry.equals("empty") && registers) {
      registration = ShardexTelemetry.register(new Empty());
    }
    events = ClusterEvents.of(telemetry.equals("micrometer") || telemetry.equals("empty") ? "listeners"
        : telemetry.startsWith("jmx") ? "jmx" : telemetry, 1000, new FourShards());
    events.open();
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    events.poolCreating(shard.id(), config);
    if (config.getMetricsTrackerFactory() != null) {
      tracker = config.getMetricsTrackerFactory().create("shardex-bench-c1-shard-1", new com.zaxxer.hikari.metrics.PoolStats(0) {
        @Override
        protected void update() {}
      });
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    events.close();
    if (tracker != null) {
      tracker.close();
    }
    if (registration != null) {
      registration.close();
    }
  }

  @Benchmark
  public Object oneShardStatement() {
    StatementTrace trace = events.begin(session, template, SQL);
    StatementTrace running = session.running();
    if (running != null) {
      running.routed(Fanout.ONE, 1);
    }
    long borrowed = 0;
    if (tracker != null) {
      borrowed = System.nanoTime();
      tracker.recordConnectionAcquiredNanos(borrowed - (trace == null ? borrowed : trace.startNanos()));
    }
    events.callStarted(session, shard, lease, null);
    events.callEnded(session, shard, lease);
    if (tracker != null) {
      tracker.recordConnectionUsageMillis((System.nanoTime() - borrowed) / 1_000_000);
    }
    if (trace != null) {
      trace.end();
    }
    return trace;
  }

  /** Hears what shardex-micrometer hears, does nothing with it. */
  static final class Empty implements dev.shardex.driver.events.ShardexListener {
    @Override
    public void statementEnded(dev.shardex.driver.events.StatementView statement, Object started) {}

    @Override
    public void shardCallEnded(ClusterView cluster, Object call, Shard shard, long nanos) {}
  }

  private static AutoCloseable micrometer() {
    return ShardexTelemetry.register(
        new dev.shardex.micrometer.ShardexMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()));
  }

  /**
   * The same, as CPU time of the calling thread (machine load stretches JMH's wall-clock figures,
   * hardly this): the settings take turns in blocks, median ns per statement of each. A registered
   * listener applies to every cluster that takes listeners, so none and jmx are measured before
   * shardex-micrometer is registered, none, micrometer and jmx-micrometer while it is, then none and empty.
   * {@code -Dbench.main=dev.shardex.benchmarks.micro.TelemetryBenchmark -Dbench.skipJmh=true}.
   */
  public static void main(String[] args) throws Exception {
    compare(new String[] {"none", "jmx"});
    try (AutoCloseable installed = micrometer()) {
      compare(new String[] {"none", "micrometer", "jmx-micrometer"});
    }
    try (AutoCloseable installed = ShardexTelemetry.register(new Empty())) {
      compare(new String[] {"none", "empty"});
    }
    System.exit(0);
  }

  private static void compare(String[] modes) throws Exception {
    TelemetryBenchmark[] b = new TelemetryBenchmark[modes.length];
    for (int i = 0; i < modes.length; i++) {
      b[i] = new TelemetryBenchmark();
      b[i].telemetry = modes[i];
      b[i].registers = false;
      b[i].start();
    }
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    int rounds = 40;
    int ops = 200_000;
    double[][] ns = new double[modes.length][rounds];
    for (int r = -10; r < rounds; r++) {
      for (int k = 0; k < modes.length; k++) {
        int i = (k + Math.max(r, 0)) % modes.length;
        long t0 = threads.getCurrentThreadCpuTime();
        for (int n = 0; n < ops; n++) {
          b[i].oneShardStatement();
        }
        if (r >= 0) {
          ns[i][r] = (threads.getCurrentThreadCpuTime() - t0) / (double) ops;
        }
      }
    }
    for (int i = 0; i < modes.length; i++) {
      java.util.Arrays.sort(ns[i]);
      System.out.printf(java.util.Locale.ROOT, "telemetry %-14s %7.1f ns CPU per one-shard statement (median of %d blocks)%n",
          modes[i], ns[i][rounds / 2], rounds);
      b[i].stop();
    }
  }
}
