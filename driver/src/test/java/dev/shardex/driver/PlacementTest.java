package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Acceptance: 1,000 users through plain JDBC land exactly where the directory says, and nowhere else. */
class PlacementTest {
  static final long FIRST = 10_001;
  static final int USERS = 1_000;
  static final int ROWS = 3;
  static final PlainJdbcEvents APP = new PlainJdbcEvents(TestCluster.URL);
  static DirectoryStore store;

  @BeforeAll
  static void load() throws Exception {
    APP.createSchema();
    APP.insertUsers(FIRST, USERS, ROWS);
    try (Connection c = TestCluster.connect()) {
      store = TestCluster.cluster(c).directory().store();
    }
  }

  @Test
  void everyUsersRowsSitOnTheShardTheDirectoryNamesAndNowhereElse() throws Exception {
    Map<Long, Integer> seenOn = new HashMap<>();
    int[] usersPerShard = new int[TestCluster.SHARDS];
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      try (Connection c = TestCluster.sandbox().connectShard(shard); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT user_id, COUNT(*) FROM pl_events WHERE user_id BETWEEN " + FIRST
              + " AND " + (FIRST + USERS - 1) + " GROUP BY user_id")) {
        while (rs.next()) {
          long user = rs.getLong(1);
          Integer before = seenOn.put(user, shard);
          assertEquals(null, before, "user " + user + " has rows on shards " + before + " and " + shard);
          assertEquals(ROWS, rs.getInt(2), "rows of user " + user + " on shard " + shard);
          usersPerShard[shard]++;
        }
      }
    }
    assertEquals(USERS, seenOn.size(), "every user's rows are somewhere");
    for (Map.Entry<Long, Integer> e : seenOn.entrySet()) {
      Placement p = store.lookup(KeySpace.DEFAULT, Long.toString(e.getKey()));
      assertNotNull(p, "directory knows user " + e.getKey());
      assertEquals(p.shardId(), e.getValue(), "user " + e.getKey() + " rows are on the directory's shard");
    }
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      assertTrue(usersPerShard[shard] > USERS / TestCluster.SHARDS / 2,
          "least-loaded placement spreads users: shard " + shard + " got " + usersPerShard[shard]);
    }
  }

  @Test
  void readsUpdatesAndDeletesByKeyTouchOnlyTheOwningShard() throws Exception {
    for (long user = FIRST + 100; user < FIRST + 120; user++) {
      int owner = store.lookup(KeySpace.DEFAULT, Long.toString(user)).shardId();

      long[] selects = TestCluster.statusAll("Com_select");
      assertEquals(ROWS, APP.countFor(user));
      assertOnlyOwnerMoved(owner, selects, TestCluster.statusAll("Com_select"), "SELECT of user " + user);

      long[] updates = TestCluster.statusAll("Com_update");
      assertEquals(ROWS, APP.rename(user, "renamed"));
      assertOnlyOwnerMoved(owner, updates, TestCluster.statusAll("Com_update"), "UPDATE of user " + user);
      assertEquals(ROWS, TestCluster.countOnShard(owner, "pl_events", "user_id = " + user + " AND body = 'renamed'"));

      long[] deletes = TestCluster.statusAll("Com_delete");
      assertEquals(0, APP.deleteOne(user), "the renamed rows no longer match 'event 0 %'");
      assertOnlyOwnerMoved(owner, deletes, TestCluster.statusAll("Com_delete"), "DELETE of user " + user);
    }
  }

  @Test
  void deleteByKeyRemovesTheRowsOnTheOwner() throws Exception {
    long user = FIRST + USERS + 1;
    APP.insertUsers(user, 1, ROWS);
    int owner = store.lookup(KeySpace.DEFAULT, Long.toString(user)).shardId();
    assertEquals(1, APP.deleteOne(user));
    assertEquals(ROWS - 1, TestCluster.countOnShard(owner, "pl_events", "user_id = " + user));
    assertEquals(ROWS - 1, APP.countFor(user));
  }

  private static void assertOnlyOwnerMoved(int owner, long[] before, long[] after, String what) {
    for (int shard = 0; shard < before.length; shard++) {
      long delta = after[shard] - before[shard];
      if (shard == owner) {
        assertTrue(delta >= 1, what + " ran on its owner, shard " + owner);
      } else {
        assertEquals(0, delta, what + " must not touch shard " + shard + " (owner is " + owner + ")");
      }
    }
  }
}
