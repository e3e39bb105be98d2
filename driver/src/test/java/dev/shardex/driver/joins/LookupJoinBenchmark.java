package dev.shardex.driver.joins;

import dev.shardex.driver.TestCluster;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a cross-shard lookup join costs (issue 20's figure), not in the suite: run with
 * {@code mvn -o -q test -pl driver -am -Dtest=LookupJoinBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * The join drives 100 orders of one seller (one shard) and looks up their 100 distinct buyers,
 * sharded by id over the 4 shards: its statements at the shards (the servers' own Com_select
 * counters around one warm execution), and its time against the same join on one plain MariaDB
 * server holding all rows, and against the same five statements sent by hand over direct
 * Connector/J (the driving read, then the four shards' {@code IN} lists at once, three on a pool and
 * one on the caller's thread: the floor of this plan on this machine, with no driver in between),
 * the three alternating execution by execution, each reading every column of every row as an
 * application does; {@code join.n} (default 1000) timed triples after a warm-up that lasts until the
 * JIT has settled (see {@link #warmUp}); medians. Also the client CPU per join (the JVM's process CPU
 * time over each kind's executions: the shards are processes of their own), and the JIT's compile
 * time within the timed window.
 */
public final class LookupJoinBenchmark {
  private static final int N = Integer.getInteger("join.n", 1000);
  private static final int WARMUP = Integer.getInteger("join.warmup", 1000);
  private static final int ROUND = 250;
  private static final int MAX_WARMUP = 20_000;
  /** Where read cells go, so the JIT cannot drop their decoding. */
  static volatile Object sink;
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
  private static final String JOIN =
      "SELECT o.id, o.total, u.name FROM lj_orders o JOIN lj_users u ON o.buyer_id = u.id WHERE o.seller_id = ?";

  @Test
  void aHundredRowLookupJoinOverFourShards() throws Exception {
    List<String> ddl = List.of(
        "CREATE TABLE lj_users (id BIGINT PRIMARY KEY, name VARCHAR(40)) COMMENT='shardex:sharded key=id'",
        "CREATE TABLE lj_orders (id BIGINT PRIMARY KEY, seller_id BIGINT NOT NULL, buyer_id BIGINT, total DECIMAL(10,2),"
            + " KEY (seller_id)) COMMENT='shardex:sharded key=seller_id'");
    StringBuilder users = new StringBuilder("INSERT INTO lj_users VALUES ");
    for (int id = 1; id <= 400; id++) {
      users.append(id == 1 ? "" : ", ").append("(").append(id).append(", 'buyer ").append(id).append("')");
    }
    StringBuilder orders = new StringBuilder("INSERT INTO lj_orders VALUES ");
    for (int id = 1; id <= 100; id++) {
      orders.append(id == 1 ? "" : ", ").append("(").append(id).append(", 7, ").append(id * 3).append(", ").append(id).append(".50)");
    }
    try (Connection oracle = SandboxCluster.shared("oracle", 1).connectShard(0); Statement o = oracle.createStatement()) {
      o.execute("DROP TABLE IF EXISTS lj_users");
      o.execute("DROP TABLE IF EXISTS lj_orders");
      for (String sql : ddl) {
        o.execute(sql);
      }
      o.execute(users.toString());
      o.execute(orders.toString());
      TestCluster.run(ddl.toArray(String[]::new));
      TestCluster.run(users.toString(), orders.toString());
      try (Connection c = TestCluster.connect(); PreparedStatement sharded = c.prepareStatement(JOIN);
          PreparedStatement plain = oracle.prepareStatement(JOIN)) {
        int rows = run(sharded);
        if (rows != 100 || run(plain) != 100) {
          throw new IllegalStateException("the join returns " + rows + " rows");
        }
        long idle = questions(null); // the counters' own SHOW STATUS statements
        long trips = questions(sharded) - idle;
        long[] before = TestCluster.statusAll("Com_select");
        run(sharded);
        long[] after = TestCluster.statusAll("Com_select");
        long[] perShard = new long[before.length];
        for (int i = 0; i < before.length; i++) {
          perShard[i] = after[i] - before[i];
        }
        long[][] nanos = new long[3][N];
        long[] cpu = new long[3];
        try (ByHand byHand = new ByHand()) {
          int warmup = warmUp(sharded, plain, byHand);
          long compiling = compileMillis();
          profile("start,event=cpu,interval=200us");
          long[] t = new long[4];
          long[] u = new long[4];
          for (int i = 0; i < N; i++) {
            triple(sharded, plain, byHand, t, u);
            for (int k = 0; k < 3; k++) {
              nanos[k][i] = t[k + 1] - t[k];
              cpu[k] += u[k + 1] - u[k];
            }
          }
          profile("stop,file=" + System.getProperty("join.profile") + ",collapsed");
          compiling = compileMillis() - compiling;
          System.out.printf("lookup join warm-up: %d triples until the JIT settled; JIT compile time during the %d timed triples: %d ms%n",
              warmup, N, compiling);
        }
        long shardex = median(nanos[0]);
        long one = median(nanos[1]);
        long hand = median(nanos[2]);
        System.out.printf("lookup join, 100 driving rows, 100 buyers over 4 shards: statements at the shards %s (total %d),"
            + " median %d us vs %d us on one server: x%.2f; the same 5 statements by hand over Connector/J: %d us (x%.2f);"
            + " client CPU per join %d us (one server %d us, by hand %d us); all statements at the shards (Questions) %d%n",
            Arrays.toString(perShard), Arrays.stream(perShard).sum(), shardex / 1000, one / 1000, (double) shardex / one, hand / 1000, (double) hand / one,
            cpu[0] / N / 1000, cpu[1] / N / 1000, cpu[2] / N / 1000, trips);
      }
    }
  }

  /**
   * Runs the three kinds alternately, in rounds of {@link #ROUND} triples, until a round's JIT compile
   * time is under 1% of its wall time (at least {@code join.warmup} triples, default 1000; at most
   * {@link #MAX_WARMUP}): on 2 cores the compiler's thread takes a core from the client and the
   * servers while it works, so a timed window that starts earlier measures compilation (a profile
   * after 1,000 warm-up triples had a third of the client's CPU samples in the compiler). Returns the
   * triples run.
   */
  private static int warmUp(PreparedStatement sharded, PreparedStatement plain, ByHand byHand) throws Exception {
    int done = 0;
    while (done < MAX_WARMUP) {
      long compiling = compileMillis();
      long start = System.nanoTime();
      long[] t = new long[4];
      long[] u = new long[4];
      for (int i = 0; i < ROUND; i++) {
        triple(sharded, plain, byHand, t, u);
      }
      done += ROUND;
      long wallMillis = (System.nanoTime() - start) / 1_000_000;
      if (done >= WARMUP && (compileMillis() - compiling) * 100 < wallMillis) {
        break;
      }
    }
    return done;
  }

  /**
   * One execution of each kind, alternating, with each one's wall and process CPU time between
   * consecutive marks of {@code t} and {@code u}; the warm-up runs this same code, so the timed
   * window runs code the JIT has already compiled.
   */
  private static void triple(PreparedStatement sharded, PreparedStatement plain, ByHand byHand, long[] t, long[] u) throws Exception {
    t[0] = System.nanoTime();
    u[0] = cpu();
    run(sharded);
    t[1] = System.nanoTime();
    u[1] = cpu();
    run(plain);
    t[2] = System.nanoTime();
    u[2] = cpu();
    byHand.run();
    t[3] = System.nanoTime();
    u[3] = cpu();
  }

  private static long compileMillis() {
    return java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
  }

  /**
   * With {@code -Djoin.profile=FILE} (and async-profiler's jar on the boot class path and its library
   * at {@code join.profiler}), the timed executions only are sampled, their collapsed stacks written to FILE.
   */
  private static void profile(String command) throws ReflectiveOperationException {
    if (System.getProperty("join.profile") == null) {
      return;
    }
    Class<?> ap = Class.forName("one.profiler.AsyncProfiler");
    Object profiler = ap.getMethod("getInstance", String.class).invoke(null, System.getProperty("join.profiler"));
    ap.getMethod("execute", String.class).invoke(profiler, command);
  }

  /** Every statement the shards received (their Questions counters) around one execution (none for null). */
  private static long questions(PreparedStatement ps) throws SQLException {
    long[] before = TestCluster.statusAll("Questions");
    if (ps != null) {
      run(ps);
    }
    long[] after = TestCluster.statusAll("Questions");
    return Arrays.stream(after).sum() - Arrays.stream(before).sum();
  }

  private static long cpu() {
    return OS.getProcessCpuTime();
  }

  /** The plan's five statements over direct Connector/J: the driving read, then each shard's buyers at once. */
  private static final class ByHand implements AutoCloseable {
    private final Connection[] shards = new Connection[TestCluster.SHARDS];
    private final PreparedStatement[] lookups = new PreparedStatement[TestCluster.SHARDS];
    private final java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(TestCluster.SHARDS - 1);
    private PreparedStatement driving;

    ByHand() throws SQLException {
      for (int i = 0; i < shards.length; i++) {
        shards[i] = TestCluster.sandbox().connectShard(i);
        List<Long> ids = new java.util.ArrayList<>();
        try (Statement s = shards[i].createStatement(); ResultSet rs = s.executeQuery(
            "SELECT u.id FROM lj_users u WHERE u.id % 3 = 0 AND u.id <= 300")) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
          }
        }
        lookups[i] = shards[i].prepareStatement("SELECT u.name, u.id FROM lj_users u WHERE u.id IN ("
            + String.join(", ", java.util.Collections.nCopies(ids.size(), "?")) + ")");
        for (int k = 0; k < ids.size(); k++) {
          lookups[i].setLong(k + 1, ids.get(k));
        }
        try (Statement s = shards[i].createStatement(); ResultSet rs = s.executeQuery("SELECT 1 FROM lj_orders WHERE seller_id = 7")) {
          driving = rs.next() ? shards[i].prepareStatement("SELECT o.id, o.total, o.buyer_id FROM lj_orders o WHERE o.seller_id = ?"
              + " LIMIT 100001") : driving;
        }
      }
    }

    void run() throws Exception {
      LookupJoinBenchmark.run(driving);
      List<java.util.concurrent.Future<Integer>> others = new java.util.ArrayList<>();
      for (int i = 1; i < lookups.length; i++) {
        PreparedStatement ps = lookups[i];
        others.add(pool.submit(() -> drain(ps)));
      }
      drain(lookups[0]);
      for (java.util.concurrent.Future<Integer> f : others) {
        f.get();
      }
    }

    @Override
    public void close() throws SQLException {
      pool.shutdown();
      for (Connection c : shards) {
        c.close();
      }
    }
  }

  private static int drain(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      return read(rs);
    }
  }

  private static int run(PreparedStatement ps) throws SQLException {
    ps.setLong(1, 7);
    try (ResultSet rs = ps.executeQuery()) {
      return read(rs);
    }
  }

  /**
   * Reads every column of every row, as the application that asked for them does (an ORM maps each
   * one): the cells' decoding is counted wherever it happens, in the driver that pairs the rows or
   * in the application reading one server's. Returns the rows.
   */
  private static int read(ResultSet rs) throws SQLException {
    int columns = rs.getMetaData().getColumnCount();
    int n = 0;
    while (rs.next()) {
      for (int c = 1; c <= columns; c++) {
        sink = rs.getObject(c);
      }
      n++;
    }
    return n;
  }

  private static long median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
