package dev.shardex.examples.friendfeed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Index tables that may lag or run ahead; re-filtered queries stay right and the Cleaner heals them. */
class FriendFeedTest {
  @Test
  void crashBetweenEntityAndIndex_staleIndexAfterUpdate_cleanerHeals_queriesAlwaysRight() throws Exception {
    String url = FriendFeedDemo.sandboxUrl("friendfeedtest");
    try (Connection c = DriverManager.getConnection(url)) {
      Set<String> indexes = FriendFeed.indexes("user_id", "link");
      FriendFeed ff = new FriendFeed(c, indexes);
      ff.createSchema();
      Entity crashed = FriendFeedDemo.entity(900_001, 0);
      SQLException e = assertThrows(SQLException.class, () -> ff.put(crashed, true));
      assertTrue(e.getMessage().contains("simulated crash"));
      Object user = crashed.get("user_id");
      assertTrue(ff.query("user_id", user).stream().noneMatch(x -> java.util.Arrays.equals(x.id(), crashed.id())),
          "the index does not know the entity yet");
      Entity before = FriendFeedDemo.entity(900_002, 0);
      ff.put(before);
      Entity after = FriendFeedDemo.entity(900_002, 1);
      ff.put(after);
      assertTrue(!before.get("user_id").equals(after.get("user_id")));
      assertTrue(ff.query("user_id", before.get("user_id")).stream().noneMatch(x -> java.util.Arrays.equals(x.id(), after.id())),
          "the stale index row is filtered out on read");
      FriendFeed.Repairs r = ff.clean();
      assertTrue(r.added() >= 2, "the crashed entity's rows were added: " + r);
      assertTrue(r.removed() >= 1, "the stale row was removed: " + r);
      assertTrue(ff.query("user_id", user).stream().anyMatch(x -> java.util.Arrays.equals(x.id(), crashed.id())),
          "after the Cleaner the crashed entity is found");
      assertEquals(new FriendFeed.Repairs(r.entities(), 0, 0), ff.clean(), "a second pass has nothing to do");
    }
  }

  @Test
  void newIndexBackFilledOnlineWhileWritersRun_everyQueryRight() throws Exception {
    FriendFeedDemo.Run run = FriendFeedDemo.run(FriendFeedDemo.sandboxUrl("friendfeedrun"), 600, 2, 5);
    assertTrue(run.crashes() > 0, "some writes crashed between the entity and its index: " + run);
    assertTrue(run.backfill().added() > 0, "the new index was back-filled: " + run);
    assertEquals(0, run.wrong(), "every query equals a filter of the entities themselves: " + run);
    assertEquals(9, run.checked());
  }
}
