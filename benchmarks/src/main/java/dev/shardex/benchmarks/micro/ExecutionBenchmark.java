package dev.shardex.benchmarks.micro;

import dev.shardex.benchmarks.BenchCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole cached single-shard execution, end to end, against a real 4-shard sandbox: the same
 * prepared point select (and UPDATE by key) through Shardex and through Connector/J straight to
 * the owning shard. Run with {@code -prof gc}: the difference of the two {@code gc.alloc.rate.norm}
 * figures is what Shardex allocates per execution (its own code, HikariCP's borrow and return, and
 * the result-set wrapper). Times here are dominated by the round trip; the side-by-side harness is
 * where throughput is compared.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
@State(Scope.Benchmark)
public class ExecutionBenchmark {
  private static final int USERS = 256;
  private static final String POINT = "SELECT user_id, name, email, visits FROM users WHERE user_id = ?";
  private static final String UPDATE = "UPDATE users SET visits = visits + 1 WHERE user_id = ?";
  private static final String COUNT = "SELECT COUNT(*) FROM posts WHERE created_at >= ?";
  /** Entries in the prepared batch benchmarks: users 0..99, over all four shards. */
  private static final int BATCH = 100;

  private BenchCluster cluster;
  private Connection shardex;
  private Connection[] direct;
  private PreparedStatement shardexPoint;
  private PreparedStatement shardexUpdate;
  private PreparedStatement[] directPoint;
  private PreparedStatement[] directUpdate;
  private PreparedStatement shardexCount;
  private PreparedStatement[] directCount;
  private int[] owner;
  private int next;

  @Setup(Level.Trial)
  public void start() throws Exception {
    cluster = BenchCluster.start("jmh-exec-" + ProcessHandle.current().pid(), 4, USERS, 1);
    cluster.placeUsers(1);
    cluster.loadRows();
    owner = cluster.readOwners();
    shardex = DriverManager.getConnection(cluster.shardexUrl("jmh-exec"));
    shardexPoint = shardex.prepareStatement(POINT);
    shardexUpdate = shardex.prepareStatement(UPDATE);
    shardexCount = shardex.prepareStatement(COUNT);
    shardexCount.setTimestamp(1, BenchCluster.SCATTER_SINCE);
    direct = new Connection[cluster.shardCount()];
    directPoint = new PreparedStatement[direct.length];
    directUpdate = new PreparedStatement[direct.length];
    directCount = new PreparedStatement[direct.length];
    for (int i = 0; i < direct.length; i++) {
      direct[i] = cluster.connectShard(i);
      directPoint[i] = direct[i].prepareStatement(POINT);
      directUpdate[i] = direct[i].prepareStatement(UPDATE);
      directCount[i] = direct[i].prepareStatement(COUNT);
      directCount[i].setTimestamp(1, BenchCluster.SCATTER_SINCE);
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    shardex.close();
    for (Connection c : direct) {
      c.close();
    }
    cluster.close();
  }

  private int user() {
    next = (next + 1) & (USERS - 1);
    return next;
  }

  private static long read(PreparedStatement ps, long user) throws Exception {
    ps.setLong(1, user);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(4) : -1;
    }
  }

  @Benchmark
  public long shardexPointSelect() throws Exception {
    return read(shardexPoint, user());
  }

  @Benchmark
  public long directPointSelect() throws Exception {
    int u = user();
    return read(directPoint[owner[u]], u);
  }

  @Benchmark
  public int shardexUpdate() throws Exception {
    shardexUpdate.setLong(1, user());
    return shardexUpdate.executeUpdate();
  }

  @Benchmark
  public int directUpdate() throws Exception {
    int u = user();
    directUpdate[owner[u]].setLong(1, u);
    return directUpdate[owner[u]].executeUpdate();
  }

  /** The scatter COUNT: Shardex on every shard at once (merged), against... */
  @Benchmark
  public long shardexScatterCount() throws Exception {
    try (ResultSet rs = shardexCount.executeQuery()) {
      return rs.next() ? rs.getLong(1) : -1;
    }
  }

  /** ...the same query run on each shard in turn, by hand, and added up. */
  @Benchmark
  public long directScatterCountInSequence() throws Exception {
    long sum = 0;
    for (PreparedStatement ps : directCount) {
      try (ResultSet rs = ps.executeQuery()) {
        sum += rs.next() ? rs.getLong(1) : 0;
      }
    }
    return sum;
  }

  /** A prepared batch of 100 UPDATEs by key through Shardex: one JDBC batch per shard, counts in the caller's order. */
  @Benchmark
  public int shardexBatchUpdate100() throws Exception {
    for (int u = 0; u < BATCH; u++) {
      shardexUpdate.setLong(1, u);
      shardexUpdate.addBatch();
    }
    return shardexUpdate.executeBatch().length;
  }

  /** ...the same 100 UPDATEs by hand: each shard's share as one Connector/J batch, shard after shard. */
  @Benchmark
  public int directBatchUpdate100() throws Exception {
    for (int u = 0; u < BATCH; u++) {
      directUpdate[owner[u]].setLong(1, u);
      directUpdate[owner[u]].addBatch();
    }
    int n = 0;
    for (PreparedStatement ps : directUpdate) {
      n += ps.executeBatch().length;
    }
    return n;
  }
}
