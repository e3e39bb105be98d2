package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Lookup claims hold connections of their own pool (sized as a shard pool), not of the
 * directory's four: an INSERT that keeps a lookup still runs while every directory connection is
 * taken (before, its claim waited for one and failed with SHX1406 after the pool's timeout).
 */
class LookupClaimPoolTest {
  @Test
  void insertKeepingALookup_runsWhileTheDirectoryPoolIsTaken() throws Exception {
    TestCluster.run("CREATE TABLE lcp_pets (id BIGINT PRIMARY KEY, owner_id BIGINT NOT NULL)"
        + " COMMENT='shardex:sharded key=owner_id lookup=id unique'");
    try (Connection c = TestCluster.connect("shardex.instance=lcp");
        PreparedStatement ps = c.prepareStatement("INSERT INTO lcp_pets (id, owner_id) VALUES (?, 7)")) {
      insert(ps, 1); // the owner is placed, the table's lookups are cached
      DataSource directoryPool = TestCluster.cluster(c).directory().store().dataSource();
      List<Connection> taken = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          taken.add(directoryPool.getConnection());
        }
        for (long id = 2; id <= 5; id++) {
          insert(ps, id);
        }
      } finally {
        for (Connection t : taken) {
          t.close();
        }
      }
    }
    assertEquals(Map.of("1", "7", "2", "7", "3", "7", "4", "7", "5", "7"), LookupBatchTest.entries("lcp_pets", "id"));
  }

  private static void insert(PreparedStatement ps, long id) throws Exception {
    ps.setLong(1, id);
    assertEquals(1, ps.executeUpdate());
  }
}
