package dev.shardex.driver.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The driver reads the clock for shard calls only while some listener in effect times them
 * ({@link ShardexListener#timesShardCalls}): a listener that only ends its spans gets -1, and real
 * durations as soon as one that times calls is registered too. A one-shard read and write each.
 */
class CallTimingTest {
  private static final String INSTANCE = "obstiming";

  /** The nanos of each shard call end of this test's cluster. */
  private static final class Ends implements ShardexListener {
    private final boolean times;
    final List<Long> nanos = new CopyOnWriteArrayList<>();

    Ends(boolean times) {
      this.times = times;
    }

    @Override
    public void shardCallEnded(ClusterView cluster, Object call, Shard shard, long n) {
      if (cluster.instance().equals(INSTANCE)) {
        nanos.add(n);
      }
    }

    @Override
    public boolean timesShardCalls() {
      return times;
    }
  }

  private static void readAndWrite(Statement s) throws Exception {
    try (ResultSet rs = s.executeQuery("SELECT v FROM obs_timing WHERE user_id = 2")) {
      assertTrue(rs.next());
      assertEquals(2, rs.getInt(1));
    }
    assertEquals(1, s.executeUpdate("UPDATE obs_timing SET v = v WHERE user_id = 2"));
  }

  @Test
  void callsAreTimedOnlyWhileAListenerTimesThem() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS obs_timing (user_id BIGINT PRIMARY KEY, v INT)",
        "REPLACE INTO obs_timing (user_id, v) VALUES (1, 1), (2, 2)");
    Ends spans = new Ends(false);
    try (AutoCloseable registered = ShardexTelemetry.register(spans);
        Connection c = TestCluster.connect("shardex.instance=" + INSTANCE + "&shardex.telemetry=listeners");
        Statement s = c.createStatement()) {
      readAndWrite(s);
      assertEquals(List.of(-1L, -1L), spans.nanos, "no listener times calls: no clock read for them");

      Ends meter = new Ends(true);
      try (AutoCloseable also = ShardexTelemetry.register(meter)) {
        spans.nanos.clear();
        readAndWrite(s);
        assertEquals(2, meter.nanos.size(), meter.nanos.toString());
        assertTrue(meter.nanos.stream().allMatch(n -> n > 0), meter.nanos.toString());
        assertEquals(meter.nanos, spans.nanos, "one reading, told to both");
      }
    }
  }
}
