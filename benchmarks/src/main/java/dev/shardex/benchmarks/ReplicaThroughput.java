package dev.shardex.benchmarks;

import dev.shardex.driver.execute.ReplicaHealth;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Read-only point selects on a 2-shard sandbox with one replica per shard, read from the primaries
 * only ({@code primary}) and with {@code shardex.readTarget=replica_preferred} ({@code replica}),
 * side by side in one process: the two take turns in blocks of {@code rt.blockMs}, each block run by
 * {@code rt.threads} threads with a connection each, so machine load hits both alike; per contender
 * the median over blocks of operations per second and of the mean latency, and the ratios. With
 * {@code rt.pairs=true} a second workload writes then reads a row (read-your-writes on: the replica
 * read waits for the write in the same round trip).
 *
 * <p>On one machine the replicas share the primaries' CPUs, so this measures what routing a read to a
 * replica costs, not what replicas add: see docs/replicas.md for the figures on separate hosts.
 *
 * <p>{@code mvn -q -o -Dmaven.test.skip=true -Pbench -pl benchmarks -am verify -Dbench.skipJmh=true
 * -Dbench.main=dev.shardex.benchmarks.ReplicaThroughput}; options {@code rt.threads} (4),
 * {@code rt.blocks} (10 per contender), {@code rt.blockMs} (2000), {@code rt.users} (1000),
 * {@code rt.pairs} (true).
 */
public final class ReplicaThroughput {
  private static final String NAME = "bench-replicas";
  private static final String URL = "jdbc:shardex:sandbox:" + NAME + "?shards=2&replicas=1";
  private static final String POINT = "SELECT user_id, name, visits FROM rt_users WHERE user_id = ?";
  private static final String UPDATE = "UPDATE rt_users SET visits = ? WHERE user_id = ?";

  private final int threads = Integer.getInteger("rt.threads", 4);
  private final int blocks = Integer.getInteger("rt.blocks", 10);
  private final long blockMs = Long.getLong("rt.blockMs", 2_000);
  private final int users = Integer.getInteger("rt.users", 1_000);

  private ReplicaThroughput() {}

  /** One block's figures: operations, and their summed latency. */
  private record Block(long ops, long nanos, long wallNanos) {}

  public static void main(String[] args) throws Exception {
    double load = Harness.loadAverage();
    ReplicaThroughput run = new ReplicaThroughput();
    run.load();
    SandboxCluster sandbox = SandboxCluster.shared(NAME, 2, 1);
    for (int shard = 0; shard < 2; shard++) {
      sandbox.replica(shard, 0).awaitCaughtUp();
    }
    String primary = URL + "&shardex.instance=rt-primary";
    String replica = URL + "&shardex.instance=rt-replica&shardex.readTarget=replica_preferred";
    run.compare("point select", primary, replica, false);
    if (Boolean.parseBoolean(System.getProperty("rt.pairs", "true"))) {
      run.compare("update, then select it", primary, replica, true);
    }
    System.out.printf(Locale.ROOT, "machine load average (1 min) at the start / end: %.1f / %.1f, %d cores%n", load,
        Harness.loadAverage(), Runtime.getRuntime().availableProcessors());
    dev.shardex.driver.ShardexDriver.shutdown();
    System.exit(0);
  }

  private void load() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS rt_users");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE rt_users "
          + "(user_id BIGINT PRIMARY KEY, name VARCHAR(40), visits BIGINT NOT NULL)");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO rt_users VALUES (?, ?, 0)")) {
        for (int u = 1; u <= users; u++) {
          ps.setLong(1, u);
          ps.setString(2, "user " + u);
          ps.executeUpdate();
        }
      }
    }
  }

  private void compare(String workload, String primaryUrl, String replicaUrl, boolean pairs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Connection> primaries = connections(primaryUrl);
    List<Connection> replicas = connections(replicaUrl);
    try {
      ReplicaHealth health = replicas.get(0).unwrap(dev.shardex.driver.jdbc.ShardexConnection.class).cluster().replicaHealth();
      block(pool, primaries, pairs, blockMs); // warm-up, both
      block(pool, replicas, pairs, blockMs);
      long servedBefore = health.replicaReads();
      long waitsBefore = health.causalWaits();
      long[] fallbacksBefore = fallbacks(health);
      List<Block> p = new ArrayList<>();
      List<Block> r = new ArrayList<>();
      long replicaOps = 0;
      for (int i = 0; i < blocks; i++) {
        p.add(block(pool, primaries, pairs, blockMs));
        Block b = block(pool, replicas, pairs, blockMs);
        r.add(b);
        replicaOps += b.ops();
      }
      long served = health.replicaReads() - servedBefore;
      long[] fallbacksAfter = fallbacks(health);
      print(workload, p, r);
      System.out.printf(Locale.ROOT, "  replica_preferred: %d of %d reads sent to a replica (%.1f%%), %d behind a wait;"
          + " to the primary by reason %s%n", served, replicaOps, 100.0 * served / Math.max(1, replicaOps),
          health.causalWaits() - waitsBefore, fallbackDelta(fallbacksBefore, fallbacksAfter));
    } finally {
      for (Connection c : primaries) {
        c.close();
      }
      for (Connection c : replicas) {
        c.close();
      }
      pool.shutdownNow();
    }
  }

  private List<Connection> connections(String url) throws SQLException {
    List<Connection> out = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      out.add(DriverManager.getConnection(url));
    }
    return out;
  }

  /** Every thread runs operations on its own connection for {@code ms}; the block's totals. */
  private Block block(ExecutorService pool, List<Connection> connections, boolean pairs, long ms) throws Exception {
    long start = System.nanoTime();
    long end = start + ms * 1_000_000L;
    List<Future<long[]>> parts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Connection c = connections.get(t);
      int seed = t;
      parts.add(pool.submit(() -> operations(c, seed, end, pairs)));
    }
    long ops = 0;
    long nanos = 0;
    for (Future<long[]> f : parts) {
      long[] got = f.get();
      ops += got[0];
      nanos += got[1];
    }
    return new Block(ops, nanos, System.nanoTime() - start);
  }

  /** One thread's point selects (or update-then-select pairs) until {@code end}: {ops, summed nanos}. */
  private long[] operations(Connection c, int seed, long end, boolean pairs) throws SQLException {
    long ops = 0;
    long nanos = 0;
    long user = 1L + seed;
    try (PreparedStatement select = c.prepareStatement(POINT); PreparedStatement update = c.prepareStatement(UPDATE)) {
      while (System.nanoTime() < end) {
        user = 1 + (user * 31 + 7) % users;
        long t0 = System.nanoTime();
        if (pairs) {
          update.setLong(1, t0);
          update.setLong(2, user);
          update.executeUpdate();
        }
        select.setLong(1, user);
        try (ResultSet rs = select.executeQuery()) {
          if (!rs.next() || (pairs && rs.getLong(3) != t0)) {
            throw new IllegalStateException("user " + user + ": wrong answer");
          }
        }
        nanos += System.nanoTime() - t0;
        ops++;
      }
    }
    return new long[] {ops, nanos};
  }

  private static void print(String workload, List<Block> primary, List<Block> replica) {
    double pOps = median(primary, b -> b.ops() * 1e9 / b.wallNanos());
    double rOps = median(replica, b -> b.ops() * 1e9 / b.wallNanos());
    double pLat = median(primary, b -> b.nanos() / 1e3 / Math.max(1, b.ops()));
    double rLat = median(replica, b -> b.nanos() / 1e3 / Math.max(1, b.ops()));
    System.out.printf(Locale.ROOT, "%s, %d blocks each:%n", workload, primary.size());
    System.out.printf(Locale.ROOT, "  primaries only     %,10.0f ops/s  %8.1f us/op%n", pOps, pLat);
    System.out.printf(Locale.ROOT, "  replica_preferred  %,10.0f ops/s  %8.1f us/op%n", rOps, rLat);
    System.out.printf(Locale.ROOT, "  ratio replica/primary: throughput x%.2f, latency x%.2f%n", rOps / pOps, rLat / pLat);
  }

  private static double median(List<Block> blocks, java.util.function.ToDoubleFunction<Block> f) {
    double[] v = blocks.stream().mapToDouble(f).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static long[] fallbacks(ReplicaHealth health) {
    return Arrays.stream(ReplicaHealth.Fallback.values()).mapToLong(health::fallbacks).toArray();
  }

  private static String fallbackDelta(long[] before, long[] after) {
    StringBuilder out = new StringBuilder();
    for (ReplicaHealth.Fallback f : ReplicaHealth.Fallback.values()) {
      long n = after[f.ordinal()] - before[f.ordinal()];
      if (n > 0) {
        out.append(out.length() == 0 ? "" : ", ").append(f).append(' ').append(n);
      }
    }
    return out.length() == 0 ? "none" : out.toString();
  }
}
