package dev.shardex.benchmarks;

import dev.shardex.driver.jdbc.ShardexConnection;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a transaction costs in each {@code shardex.transactions} mode, side by side in one process
 * on one 4-shard sandbox: single-shard transactions (UPDATE, SELECT, INSERT, COMMIT) in atomic,
 * single and xa, and two-shard transactions (an UPDATE on each shard, COMMIT) in atomic and xa.
 *
 * <p>The modes take turns transaction by transaction (rotating which goes first) so drift on a
 * shared machine hits them alike; the figure is the median time of {@code bench.rounds} x
 * {@code bench.txPerRound} transactions per mode (defaults 15 x 300).
 *
 * <p>Run: {@code mvn -o -q -DskipTests -Ptxbench -pl benchmarks -am verify}
 */
public final class TransactionBenchmark {
  static final String URL = "jdbc:shardex:sandbox:txbench?shards=4";
  static final int ROUNDS = Integer.getInteger("bench.rounds", 15);
  static final int PER_ROUND = Integer.getInteger("bench.txPerRound", 300);
  static final int USERS_PER_SHARD = 50;

  private TransactionBenchmark() {}

  interface Tx {
    void run(Connection c, int i) throws SQLException;
  }

  public static void main(String[] args) throws Exception {
    long[][] users = setUp();
    Map<String, Connection> modes = new LinkedHashMap<>();
    for (String mode : List.of("atomic", "single", "xa")) {
      Connection c = DriverManager.getConnection(URL + "&shardex.transactions=" + mode + "&shardex.instance=bench-" + mode);
      c.setAutoCommit(false);
      modes.put(mode, c);
    }
    Tx oneShard = (c, i) -> {
      long u = users[i % 4][(i / 4) % USERS_PER_SHARD];
      try (PreparedStatement up = c.prepareStatement("UPDATE tb_accounts SET balance = balance + 1 WHERE user_id = ?");
          PreparedStatement read = c.prepareStatement("SELECT balance FROM tb_accounts WHERE user_id = ?");
          PreparedStatement log = c.prepareStatement("INSERT INTO tb_log (user_id, amount) VALUES (?, ?)")) {
        up.setLong(1, u);
        up.executeUpdate();
        read.setLong(1, u);
        long balance;
        try (ResultSet rs = read.executeQuery()) {
          rs.next();
          balance = rs.getLong(1);
        }
        log.setLong(1, u);
        log.setLong(2, balance);
        log.executeUpdate();
      }
      c.commit();
    };
    Tx twoShards = (c, i) -> {
      long from = users[i % 4][(i / 4) % USERS_PER_SHARD];
      long to = users[(i + 1) % 4][(i / 4) % USERS_PER_SHARD];
      try (PreparedStatement up = c.prepareStatement("UPDATE tb_accounts SET balance = balance + ? WHERE user_id = ?")) {
        up.setLong(1, -1);
        up.setLong(2, from);
        up.executeUpdate();
        up.setLong(1, 1);
        up.setLong(2, to);
        up.executeUpdate();
      }
      c.commit();
    };
    Map<String, Double> single = measure("1 shard", oneShard, modes);
    Map<String, Connection> multi = new LinkedHashMap<>(modes);
    multi.remove("single");
    Map<String, Double> two = measure("2 shards", twoShards, multi);
    System.out.println();
    System.out.printf("1-shard transaction (UPDATE, SELECT, INSERT, COMMIT), median of %d rounds x %d: atomic %.1f us, single %.1f us, xa %.1f us; atomic/single = %.3f, xa/single = %.3f%n",
        ROUNDS, PER_ROUND, single.get("atomic"), single.get("single"), single.get("xa"),
        single.get("atomic") / single.get("single"), single.get("xa") / single.get("single"));
    System.out.printf("2-shard transaction (2 UPDATEs, COMMIT): atomic %.1f us, xa %.1f us; atomic/xa = %.3f%n",
        two.get("atomic"), two.get("xa"), two.get("atomic") / two.get("xa"));
    for (Connection c : modes.values()) {
      c.close();
    }
    dev.shardex.driver.ShardexDriver.shutdown();
    System.exit(0);
  }

  /**
   * Median microseconds per transaction, per mode. The modes take turns transaction by
   * transaction (the order rotating), so load from elsewhere on the machine hits them alike.
   */
  static Map<String, Double> measure(String label, Tx tx, Map<String, Connection> modes) throws SQLException {
    List<String> names = new ArrayList<>(modes.keySet());
    for (String m : names) { // warm-up: JIT, pools, prepared-statement caches
      for (int i = 0; i < PER_ROUND * 2; i++) {
        tx.run(modes.get(m), i);
      }
    }
    int samples = ROUNDS * PER_ROUND;
    Map<String, double[]> micros = new LinkedHashMap<>();
    names.forEach(m -> micros.put(m, new double[samples]));
    for (int i = 0; i < samples; i++) {
      for (int k = 0; k < names.size(); k++) {
        String m = names.get((i + k) % names.size());
        long start = System.nanoTime();
        tx.run(modes.get(m), i);
        micros.get(m)[i] = (System.nanoTime() - start) / 1000.0;
      }
    }
    Map<String, Double> medians = new LinkedHashMap<>();
    micros.forEach((m, v) -> {
      double[] sorted = v.clone();
      Arrays.sort(sorted);
      medians.put(m, sorted[sorted.length / 2]);
      System.out.printf("%s %-7s %d transactions: median %.1f us, p90 %.1f us, mean %.1f us%n", label, m, samples,
          sorted[sorted.length / 2], sorted[sorted.length * 9 / 10], Arrays.stream(v).average().orElse(0));
    });
    return medians;
  }

  /** Tables, and USERS_PER_SHARD users placed on each of the 4 shards. */
  static long[][] setUp() throws SQLException {
    long[][] users = new long[4][USERS_PER_SHARD];
    int[] found = new int[4];
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS tb_accounts "
          + "(user_id BIGINT NOT NULL PRIMARY KEY, balance BIGINT NOT NULL) ENGINE=InnoDB");
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS tb_log "
          + "(id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, amount BIGINT NOT NULL) ENGINE=InnoDB");
      var store = c.unwrap(ShardexConnection.class).cluster().directory().store();
      for (long u = 1; Arrays.stream(found).anyMatch(f -> f < USERS_PER_SHARD); u++) {
        s.executeUpdate("INSERT IGNORE INTO tb_accounts (user_id, balance) VALUES (" + u + ", 0)");
        int shard = store.lookup(KeySpace.DEFAULT, Long.toString(u)).shardId();
        if (found[shard] < USERS_PER_SHARD) {
          users[shard][found[shard]++] = u;
        }
      }
    }
    return users;
  }
}
