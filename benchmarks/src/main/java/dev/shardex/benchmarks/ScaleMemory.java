package dev.shardex.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.Progress;
import dev.shardex.directory.move.RebalancePlanner.Plan;
import dev.shardex.directory.move.Rebalancer;
import dev.shardex.directory.move.Verifier;
import dev.shardex.driver.ShardexDriver;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Heap of {@code verify} and {@code rebalance plan} over a key space of {@code scale.keys} keys
 * (10,000,000): 4 shards, one table, one row per key and a second row for every 40th key (so shard
 * 0 is ~7% above its share and the plan has work). The key map and the rows are made by the
 * servers themselves (INSERT ... SELECT from MariaDB's SEQUENCE engine), then both run in this JVM
 * while a thread samples the heap every 5 ms. Run it with a small heap to show the bound:
 * <pre>
 * mvn -o -q -DskipTests -Pbench -pl benchmarks -am verify -Dbench.skipJmh=true \
 *     -Dbench.main=dev.shardex.benchmarks.ScaleMemory -Dbench.jvm="-Xmx128m -Dscale.keys=10000000"
 * </pre>
 */
public final class ScaleMemory {
  static final int SHARDS = 4;

  private ScaleMemory() {}

  public static void main(String[] args) throws Exception {
    long keys = Long.getLong("scale.keys", 10_000_000);
    SandboxCluster sandbox = SandboxCluster.shared("scale", SHARDS);
    try (HikariDataSource pool = pool(sandbox, 4)) {
      long t0 = System.nanoTime();
      seed(sandbox, keys);
      System.out.printf("seeded %,d keys and %,d rows in %d s%n", keys, keys + keys / 40, (System.nanoTime() - t0) / 1_000_000_000);
      DirectoryStore store = new DirectoryStore(pool);
      measure("verify", () -> {
        Verifier.Report r = new Verifier(store, sandbox::connectShard).verify(false, Progress.NONE);
        return r.orphanCount() + " orphan(s), " + r.unownedCount() + " unowned";
      });
      measure("rebalance plan (tolerance 0.01, 10,000 moves at most)", () -> {
        Plan p = new Rebalancer(store, sandbox::connectShard).plan(KeySpace.DEFAULT, 0.01, 10_000, Progress.NONE);
        return p.moves().size() + " move(s), " + p.rowsMoved() + " row(s); balanced: " + p.balanced();
      });
    } finally {
      ShardexDriver.shutdown();
      sandbox.close();
    }
  }

  interface Work {
    String run() throws Exception;
  }

  /** Runs the work while sampling the heap; prints its time, the peak heap used and the old generation after GC. */
  static void measure(String what, Work work) throws Exception {
    System.gc();
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    AtomicLong peak = new AtomicLong(before);
    Thread sampler = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        peak.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "heap-sampler");
    sampler.setDaemon(true);
    sampler.start();
    long t0 = System.nanoTime();
    String result = work.run();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    sampler.interrupt();
    sampler.join();
    long afterGc = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getCollectionUsage() != null && p.getName().contains("Old")) {
        afterGc = Math.max(afterGc, p.getCollectionUsage().getUsed());
      }
    }
    System.out.printf("%s: %s in %,d ms; heap used before %,d KB, peak %,d KB (sampled every 5 ms), old generation after "
        + "its last GC %,d KB; max heap %,d MB%n", what, result, ms, before / 1024, peak.get() / 1024, afterGc / 1024,
        Runtime.getRuntime().maxMemory() / (1024 * 1024));
  }

  static void seed(SandboxCluster sandbox, long keys) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:shardex:sandbox:scale?shards=" + SHARDS); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE scale_rows (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, "
          + "KEY (user_id))");
    }
    String seq = "seq_1_to_" + keys;
    try (Connection c = sandbox.connectDirectory(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO key_map (keyspace, k, shard_id, state, version) SELECT 'default', seq, seq % " + SHARDS
          + ", 'ACTIVE', 1 FROM " + seq);
      s.execute("UPDATE shards SET key_count = (SELECT COUNT(*) FROM key_map WHERE shard_id = shards.id)");
    }
    for (int shard = 0; shard < SHARDS; shard++) {
      try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement()) {
        s.execute("INSERT INTO scale_rows (id, user_id) SELECT seq, seq FROM " + seq + " WHERE seq % " + SHARDS + " = " + shard);
        s.execute("INSERT INTO scale_rows (id, user_id) SELECT " + keys + " + seq, seq FROM " + seq + " WHERE seq % " + SHARDS
            + " = " + shard + " AND seq % 40 = 0");
      }
    }
  }

  static HikariDataSource pool(SandboxCluster sandbox, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(sandbox.directoryUrl());
    config.setUsername(sandbox.user());
    config.setPassword(sandbox.password());
    config.setMaximumPoolSize(size);
    config.setPoolName("bench-directory");
    return new HikariDataSource(config);
  }
}
