package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Global unique ids: sequence-filled columns, handed out in blocks, unique across shards and driver instances. */
class SequenceTest {
  @Test
  void eightThreadsOnTwoDriverInstancesInsert50000RowsWithUniqueIds() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id sequence=id */ CREATE TABLE IF NOT EXISTS seq_rows ("
        + "id BIGINT NOT NULL PRIMARY KEY, user_id BIGINT NOT NULL, v INT)");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      String url = TestCluster.URL + "&shardex.instance=seq-" + (t % 2) + "&shardex.sequenceBlock=500";
      done.add(pool.submit(() -> {
        int rows = 0;
        try (Connection c = DriverManager.getConnection(url);
            PreparedStatement ps = c.prepareStatement("INSERT INTO seq_rows (user_id, v) VALUES (?, ?), (?, ?), (?, ?), (?, ?), (?, ?)")) {
          for (int i = 0; i < 1_250; i++) {
            for (int r = 0; r < 5; r++) {
              ps.setLong(2 * r + 1, 60_000 + (thread * 7 + i + r) % 64);
              ps.setInt(2 * r + 2, thread);
            }
            ps.addBatch();
            rows += 5;
            if (i % 25 == 24) {
              ps.executeBatch();
            }
          }
          ps.executeBatch();
        }
        return rows;
      }));
    }
    int expected = 0;
    for (Future<Integer> f : done) {
      expected += f.get();
    }
    pool.shutdown();
    assertEquals(50_000, expected, "8 threads x 1,250 statements x 5 rows");
    Set<Long> ids = new HashSet<>();
    int total = 0;
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      for (String id : TestCluster.onShard(shard, "SELECT id FROM seq_rows")) {
        ids.add(Long.parseLong(id));
        total++;
      }
    }
    assertEquals(expected, total, "every row landed");
    assertEquals(total, ids.size(), "all ids unique across shards and driver instances");
  }

  @Test
  void aSequenceFilledKeyPlacesTheNewRowsAndIsReturnedAsGeneratedKeys() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id sequence=user_id */ CREATE TABLE IF NOT EXISTS seq_users ("
        + "user_id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20))");
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("INSERT INTO seq_users (name) VALUES (?), (?), (?)", Statement.RETURN_GENERATED_KEYS)) {
      ps.setString(1, "ann");
      ps.setString(2, "bob");
      ps.setString(3, "cy");
      assertEquals(3, ps.executeUpdate());
      List<Long> keys = new ArrayList<>();
      try (ResultSet rs = ps.getGeneratedKeys()) {
        while (rs.next()) {
          keys.add(rs.getLong(1));
        }
      }
      assertEquals(3, keys.size());
      var store = TestCluster.cluster(c).directory().store();
      for (int i = 0; i < 3; i++) {
        int owner = store.lookup(KeySpace.DEFAULT, Long.toString(keys.get(i))).shardId();
        assertEquals(List.of(new String[] {"ann", "bob", "cy"}[i]),
            TestCluster.onShard(owner, "SELECT name FROM seq_users WHERE user_id = " + keys.get(i)));
      }
      assertTrue(keys.get(0) < keys.get(1) && keys.get(1) < keys.get(2), "ids in row order: " + keys);
    }
  }
}
