package dev.shardex.driver.moves;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.FaultHook;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveRunner;
import dev.shardex.directory.move.Mover;
import dev.shardex.directory.move.Progress;
import dev.shardex.directory.move.RebalancePlanner;
import dev.shardex.directory.move.Rebalancer;
import dev.shardex.driver.ShardexDriver;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Adding a fifth shard under load (issue 24): 10,000 users of {@code addshard.rows} (5) rows on 4
 * shards, a new empty shard 4, then {@code rebalance plan} (5% tolerance) and apply ({@code
 * addshard.parallel} = 4 moves at a time) while 4 threads insert through the driver into random
 * users. Prints the duration, the inserts' latency during the rebalance (all, and those to users
 * the plan moved), and the lost or duplicated inserts (each acknowledged insert must be on its
 * owner's shard exactly once). Not part of the test run; run it with
 * <pre>
 * mvn -o -q test -pl driver -am -Dtest=AddShardBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * or its {@code main} on the test classpath.
 */
public final class AddShardBenchmark {
  static final int USERS = Integer.getInteger("addshard.users", 10_000);
  static final int ROWS = Integer.getInteger("addshard.rows", 5);
  static final int PARALLEL = Integer.getInteger("addshard.parallel", 4);

  @Test
  @Tag("benchmark")
  void addShard() throws Exception {
    System.out.println(run());
  }

  public static void main(String[] args) throws Exception {
    try {
      System.out.println(run());
    } finally {
      ShardexDriver.shutdown();
      SandboxCluster.shared("addshard", 5).close();
    }
  }

  static String run() throws Exception {
    SandboxCluster sandbox = SandboxCluster.shared("addshard", 5);
    try (HikariDataSource pool = MoveTestSupport.directoryPool(sandbox, "addshard", 8)) {
      DirectoryStore store = MoveTestSupport.store(pool);
      String url = MoveTestSupport.freshDirectory(sandbox, store, 4, "addshard");
      seed(sandbox, url);
      store.addShard(4, sandbox.shardUrl(4), 1.0);
      AtomicLong ids = new AtomicLong();
      MoveTestSupport.InsertWriters writers = new MoveTestSupport.InsertWriters(url, "as_rows", 4, USERS, ids, 4);
      Thread.sleep(2_000);
      long t0 = System.nanoTime();
      RebalancePlanner.Plan plan = new Rebalancer(store, MoveTestSupport.connector(sandbox))
          .plan(KeySpace.DEFAULT, 0.05, USERS, Progress.NONE);
      long planned = System.nanoTime();
      long firstId = ids.get();
      Mover mover = new Mover(store, MoveTestSupport.cliLikeConnector(sandbox), MoveOptions.defaults(), FaultHook.NONE);
      List<MoveRunner.Outcome> outcomes = MoveRunner.runAll(mover, KeySpace.DEFAULT, plan.moves(), PARALLEL, o -> { });
      long applied = System.nanoTime();
      long lastId = ids.get();
      Thread.sleep(1_000);
      writers.stop();
      return report(sandbox, store, plan, outcomes, writers, firstId, lastId, planned - t0, applied - planned);
    }
  }

  private static String report(SandboxCluster sandbox, DirectoryStore store, RebalancePlanner.Plan plan,
      List<MoveRunner.Outcome> outcomes, MoveTestSupport.InsertWriters writers, long firstId, long lastId, long planNanos,
      long applyNanos) throws Exception {
    Set<Long> moved = plan.moves().stream().map(m -> Long.parseLong(m.key())).collect(Collectors.toSet());
    long[] all = during(writers, firstId, lastId, u -> true);
    long[] movedUsers = during(writers, firstId, lastId, moved::contains);
    long[] found = audit(sandbox, store, writers);
    long[] rows = rowsPerShard(sandbox);
    return String.format("%n==== A fifth shard under load ====%n%d users x %d rows on 4 shards + an empty shard 4; 4 writers "
            + "inserting through the driver (one insert each every 4 ms)%nplan: %d move(s), %d row(s), in %d ms; apply "
            + "(%d at a time): %d ms, %d DONE, %d failed%nrows per shard after: %s%ninserts during the rebalance: all %s%n"
            + "  to the %d moved users: %s%nacknowledged inserts: %d; lost %d, duplicated %d, on a non-owner %d%n",
        USERS, ROWS, plan.moves().size(), plan.rowsMoved(), planNanos / 1_000_000, PARALLEL, applyNanos / 1_000_000,
        outcomes.stream().filter(MoveRunner.Outcome::ok).count(), outcomes.stream().filter(o -> !o.ok()).count(),
        Arrays.toString(rows), MoveTestSupport.latencySummary(all), moved.size(), MoveTestSupport.latencySummary(movedUsers),
        writers.acknowledged.size(), found[0], found[1], found[2]);
  }

  /** Latencies (sorted, microseconds) of the inserts started while the moves ran, to the users {@code which} keeps. */
  private static long[] during(MoveTestSupport.InsertWriters w, long firstId, long lastId, java.util.function.LongPredicate which) {
    return w.latencyMicros.entrySet().stream()
        .filter(e -> e.getKey() - 1_000_000 > firstId && e.getKey() - 1_000_000 <= lastId && which.test(w.acknowledged.get(e.getKey())))
        .mapToLong(Map.Entry::getValue).sorted().toArray();
  }

  /** {lost, duplicated, on a shard that does not own the user} over every acknowledged insert. */
  private static long[] audit(SandboxCluster sandbox, DirectoryStore store, MoveTestSupport.InsertWriters w) throws Exception {
    Map<Long, Integer> copies = new HashMap<>();
    long misplaced = 0;
    Map<Long, Integer> owners = new HashMap<>();
    for (int shard = 0; shard < 5; shard++) {
      try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, user_id FROM as_rows WHERE id > 1000000")) {
        while (rs.next()) {
          long user = rs.getLong(2);
          int owner = owners.computeIfAbsent(user, u -> ownerOf(store, u));
          misplaced += owner == shard ? 0 : 1;
          copies.merge(rs.getLong(1), 1, Integer::sum);
        }
      }
    }
    long lost = w.acknowledged.keySet().stream().filter(id -> !copies.containsKey(id)).count();
    long duplicated = copies.values().stream().filter(n -> n > 1).count();
    return new long[] {lost, duplicated, misplaced};
  }

  private static int ownerOf(DirectoryStore store, long user) {
    try {
      return store.lookup(KeySpace.DEFAULT, Long.toString(user)).shardId();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long[] rowsPerShard(SandboxCluster sandbox) throws Exception {
    long[] rows = new long[5];
    for (int shard = 0; shard < 5; shard++) {
      try (Connection c = sandbox.connectShard(shard); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM as_rows")) {
        rs.next();
        rows[shard] = rs.getLong(1);
      }
    }
    return rows;
  }

  /** The table, the users placed round-robin on shards 0..3, and their rows, made by the servers (SEQUENCE engine). */
  private static void seed(SandboxCluster sandbox, String url) throws Exception {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE as_rows (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, "
          + "KEY (user_id))");
    }
    MoveTestSupport.onShard(sandbox, 4, "CREATE TABLE as_rows (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, KEY (user_id))");
    try (Connection c = sandbox.connectDirectory(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO key_map (keyspace, k, shard_id, state, version) SELECT 'default', seq, seq % 4, 'ACTIVE', 1 "
          + "FROM seq_1_to_" + USERS);
      s.execute("UPDATE shards SET key_count = (SELECT COUNT(*) FROM key_map WHERE shard_id = shards.id)");
    }
    for (int shard = 0; shard < 4; shard++) {
      MoveTestSupport.onShard(sandbox, shard, "INSERT INTO as_rows (id, user_id) SELECT seq, (seq - 1) DIV " + ROWS + " + 1 FROM seq_1_to_"
          + (USERS * ROWS) + " WHERE ((seq - 1) DIV " + ROWS + " + 1) % 4 = " + shard);
    }
  }
}
