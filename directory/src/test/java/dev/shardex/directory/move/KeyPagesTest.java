package dev.shardex.directory.move;

import static dev.shardex.directory.move.TestCluster.directory;
import static dev.shardex.directory.move.TestCluster.onAllShards;
import static dev.shardex.directory.move.TestCluster.onShard;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.move.RebalancePlanner.Plan;
import dev.shardex.directory.move.RebalancePlanner.ShardBalance;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Verify and rebalance planning over more keys than one page ({@link KeyPages#PAGE}): 3,500 users,
 * most on shard 0, 2 rows each, one orphan and one unowned key in the later pages.
 */
class KeyPagesTest {
  static final int USERS = 3_500;
  DirectoryStore store;

  @BeforeEach
  void setUp() throws SQLException {
    store = TestCluster.fresh();
    onAllShards("CREATE TABLE kp_rows (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, KEY (user_id))");
    store.declareTable(TableDef.sharded("kp_rows", KeySpace.DEFAULT, "user_id"));
    // users 1..2800 on shard 0, the rest spread over 1 and 2
    directory("INSERT INTO key_map (keyspace, k, shard_id, state, version) SELECT 'default', seq, "
        + "IF(seq <= 2800, 0, 1 + seq % 2), 'ACTIVE', 1 FROM seq_1_to_" + USERS);
    for (int shard = 0; shard < 3; shard++) {
      onShard(shard, "INSERT INTO kp_rows SELECT seq, (seq + 1) DIV 2 FROM seq_1_to_" + 2 * USERS
          + " WHERE IF((seq + 1) DIV 2 <= 2800, 0, 1 + ((seq + 1) DIV 2) % 2) = " + shard);
    }
  }

  @Test
  void verify_findsTheOrphanAndTheUnownedKeyInALaterPage() throws SQLException {
    onShard(2, "INSERT INTO kp_rows VALUES (100001, 2900)"); // 2900 lives on shard 0 + 2900 % 2 = 1
    onShard(0, "INSERT INTO kp_rows VALUES (100002, 9999), (100003, 9999)"); // no owner
    Verifier.Report r = new Verifier(store, TestCluster.connector()).verify(false, Progress.NONE);
    assertEquals(1, r.orphanCount(), r.orphans().toString());
    assertEquals(new Verifier.Finding("kp_rows", 2, "2900", 1, 1, "orphan"), r.orphans().get(0));
    assertEquals(1, r.unownedCount(), r.unowned().toString());
    assertEquals(new Verifier.Finding("kp_rows", 0, "9999", null, 2, "no owner in the key map"), r.unowned().get(0));
  }

  @Test
  void rebalancePlan_balancesWithoutListingEveryKey() throws SQLException {
    Plan plan = new Rebalancer(store, TestCluster.connector()).plan(KeySpace.DEFAULT, 0.05, 10_000, Progress.NONE);
    assertTrue(plan.balanced(), plan.shards().toString());
    List<ShardBalance> shards = plan.shards();
    assertEquals(5_600, shards.get(0).before(), "2,800 users x 2 rows");
    assertEquals(2 * USERS, shards.stream().mapToLong(ShardBalance::after).sum());
    assertTrue(plan.moves().stream().allMatch(m -> m.from() == 0 && m.rows() == 2), plan.moves().toString());
    assertEquals(5_600 - shards.get(0).after(), plan.rowsMoved());
  }
}
