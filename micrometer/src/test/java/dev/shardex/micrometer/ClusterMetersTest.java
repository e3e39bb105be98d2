package dev.shardex.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.events.RouteKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which statements the fan-out summary records, and the shard counters a call meter and a pool tracker share. */
class ClusterMetersTest {
  @Test
  void varies_onlyWhereTheCallsDifferFromTheRoutesOwn() {
    assertFalse(ClusterMeters.varies(RouteKind.ONE_SHARD, 1));
    assertTrue(ClusterMeters.varies(RouteKind.ONE_SHARD, 2), "routed again after a move");
    assertTrue(ClusterMeters.varies(RouteKind.ONE_SHARD, 0), "its shard gave no connection");
    assertFalse(ClusterMeters.varies(RouteKind.LOCAL, 0));
    assertFalse(ClusterMeters.varies(RouteKind.NONE, 0));
    assertTrue(ClusterMeters.varies(RouteKind.LOCAL, 1));
    for (RouteKind scatter : List.of(RouteKind.SEVERAL, RouteKind.ALL, RouteKind.MERGED, RouteKind.JOIN, RouteKind.HELD)) {
      assertTrue(ClusterMeters.varies(scatter, 1), scatter.tag());
      assertTrue(ClusterMeters.varies(scatter, 4), scatter.tag());
    }
  }

  @Test
  void shardCounters_sumEveryThreadsAdds() throws Exception {
    ShardCounters c = new ShardCounters();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      threads.add(new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          c.add(ShardCounters.CALLS, 3);
          c.add(ShardCounters.USAGES, i % 2);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(80_000, c.count(ShardCounters.CALLS));
    assertEquals(240_000, c.total(ShardCounters.CALLS));
    assertEquals(80_000, c.count(ShardCounters.USAGES));
    assertEquals(40_000, c.total(ShardCounters.USAGES), "0 ms adds nothing, 1 ms adds one");
    assertEquals(0, c.count(ShardCounters.ACQUIRES));
  }

  @Test
  void stripes_aPowerOfTwoAtLeastTheProcessors() {
    assertEquals(1, ShardCounters.stripes(1));
    assertEquals(2, ShardCounters.stripes(2));
    assertEquals(4, ShardCounters.stripes(3));
    assertEquals(64, ShardCounters.stripes(500));
  }
}
