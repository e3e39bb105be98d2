package dev.shardex.directory.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.move.RebalancePlanner.Plan;
import dev.shardex.directory.move.RebalancePlanner.PlannedMove;
import dev.shardex.directory.move.RebalancePlanner.ShardBalance;
import dev.shardex.directory.move.RebalancePlanner.ShardLoad;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The planner is a pure function: loads in, moves out. */
class RebalancePlannerTest {
  static Map<String, Long> users(int from, int count, Random random, int maxRows) {
    Map<String, Long> keys = new HashMap<>();
    for (int i = from; i < from + count; i++) {
      keys.put(Integer.toString(i), (long) (1 + random.nextInt(maxRows)));
    }
    return keys;
  }

  @Test
  void plan_skewedFourShardsPlusAnEmptyFifth_landsWithinTenPercent() {
    Random random = new Random(7);
    List<ShardLoad> loads = List.of(new ShardLoad(0, 1, users(0, 900, random, 200)), new ShardLoad(1, 1, users(1000, 300, random, 200)),
        new ShardLoad(2, 1, users(2000, 200, random, 50)), new ShardLoad(3, 1, users(3000, 100, random, 20)),
        new ShardLoad(4, 1, Map.of()));
    Plan plan = RebalancePlanner.plan(loads, 0.10, 100_000);
    assertTrue(plan.balanced(), plan.shards().toString());
    for (ShardBalance b : plan.shards()) {
      assertTrue(Math.abs(b.after() - b.target()) <= 0.10 * b.target(), b.toString());
    }
    long excess = plan.shards().stream().mapToLong(b -> Math.max(0, Math.round(b.before() - b.target()))).sum();
    assertTrue(plan.rowsMoved() <= excess + 200, "moves about the minimum: " + plan.rowsMoved() + " vs excess " + excess);
    assertEquals(plan.rowsMoved(), plan.moves().stream().mapToLong(PlannedMove::rows).sum());
    assertEquals(plan.moves().size(), plan.moves().stream().map(PlannedMove::key).distinct().count(), "a key moves at most once");
  }

  @Test
  void plan_balancedCluster_movesNothing() {
    Plan plan = RebalancePlanner.plan(List.of(new ShardLoad(0, 1, Map.of("a", 10L, "b", 10L)),
        new ShardLoad(1, 1, Map.of("c", 20L))), 0.10, 100);
    assertEquals(List.of(), plan.moves());
    assertTrue(plan.balanced());
  }

  @Test
  void plan_weightZero_drainsTheShard() {
    Plan plan = RebalancePlanner.plan(List.of(new ShardLoad(0, 0, Map.of("a", 5L, "b", 7L)),
        new ShardLoad(1, 1, Map.of("c", 6L)), new ShardLoad(2, 1, Map.of("d", 6L))), 0.25, 100);
    assertEquals(0, plan.shards().get(0).after());
    assertEquals(2, plan.moves().size());
  }

  @Test
  void plan_weightsSetTheShares() {
    Map<String, Long> keys = new HashMap<>();
    for (int i = 0; i < 300; i++) {
      keys.put("k" + i, 1L);
    }
    Plan plan = RebalancePlanner.plan(List.of(new ShardLoad(0, 1, keys), new ShardLoad(1, 2, Map.of())), 0.05, 1000);
    assertTrue(Math.abs(plan.shards().get(0).after() - 100) <= 5, plan.shards().toString());
    assertTrue(Math.abs(plan.shards().get(1).after() - 200) <= 10, plan.shards().toString());
  }

  @Test
  void plan_oneHugeUser_stopsInsteadOfOscillating() {
    Plan plan = RebalancePlanner.plan(List.of(new ShardLoad(0, 1, Map.of("whale", 1000L, "x", 1L)),
        new ShardLoad(1, 1, Map.of("y", 1L))), 0.10, 100);
    assertTrue(plan.moves().size() <= 1, plan.moves().toString());
    assertTrue(!plan.balanced());
  }
}
