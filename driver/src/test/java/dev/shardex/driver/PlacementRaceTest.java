package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Acceptance: two driver instances racing to insert the same new user place it on one shard. */
class PlacementRaceTest {
  static final String A = TestCluster.URL + "&shardex.instance=race-a";
  static final String B = TestCluster.URL + "&shardex.instance=race-b";

  @Test
  void twoDriverInstancesRacingOnANewKeyAgreeOnOneShard() throws Exception {
    try (Connection c = DriverManager.getConnection(A); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS race_rows (user_id BIGINT, who CHAR(1))");
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Connection a = DriverManager.getConnection(A); Connection b = DriverManager.getConnection(B)) {
      assertEquals(false, TestCluster.cluster(a) == TestCluster.cluster(b), "two separate driver instances");
      for (long user = 50_001; user <= 50_040; user++) {
        CyclicBarrier start = new CyclicBarrier(2);
        long key = user;
        List<Future<Integer>> done = new ArrayList<>();
        for (Connection c : List.of(a, b)) {
          String who = c == a ? "a" : "b";
          done.add(pool.submit(() -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO race_rows (user_id, who) VALUES (?, ?)")) {
              ps.setLong(1, key);
              ps.setString(2, who);
              start.await();
              return ps.executeUpdate();
            }
          }));
        }
        for (Future<Integer> f : done) {
          assertEquals(1, f.get());
        }
        int owner = TestCluster.cluster(a).directory().store().lookup(KeySpace.DEFAULT, Long.toString(key)).shardId();
        for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
          assertEquals(shard == owner ? 2 : 0, TestCluster.countOnShard(shard, "race_rows", "user_id = " + key),
              "user " + key + " rows on shard " + shard + " (owner " + owner + ")");
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
