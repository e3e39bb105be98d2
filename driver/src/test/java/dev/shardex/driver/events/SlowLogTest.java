package dev.shardex.driver.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The slow and refused statement log on real statements: sampled to a line a second, never a literal value. */
class SlowLogTest {
  @Test
  void slowAndRefusedStatementsAreLoggedSampledAndWithoutValues() throws Exception {
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS slow_rows (user_id BIGINT PRIMARY KEY, v VARCHAR(40))",
        "REPLACE INTO slow_rows (user_id, v) VALUES (1, 'a'), (2, 'b')");
    AtomicLong now = new AtomicLong(1_000);
    List<String> lines = new CopyOnWriteArrayList<>();
    // threshold 0: every statement is "slow", so the test needs no slow statement
    try (AutoCloseable log = ShardexTelemetry.register(new SlowLog(0, now::get, lines::add));
        Connection c = TestCluster.connect("shardex.instance=slowlog"); Statement s = c.createStatement()) {
      for (int i = 0; i < 3; i++) {
        try (ResultSet rs = s.executeQuery("SELECT v FROM slow_rows WHERE user_id = 1 AND v <> 'private-" + i + "'")) {
          assertTrue(rs.next());
        }
      }
      assertEquals(1, lines.size(), "one line a second: " + lines);
      assertTrue(lines.get(0).matches("Shardex slow statement \\d+ ms \\(route one_shard, 1 shard calls, ok\\): "
          + "SELECT v FROM slow_rows WHERE user_id = \\? AND v <> \\?"), lines.get(0));

      now.addAndGet(TimeUnit.SECONDS.toNanos(1));
      SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE slow_rows SET v = 'secret-value'"));
      assertTrue(e.getMessage().contains("SHX1201"), e.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM slow_rows")) {
        assertTrue(rs.next());
      }
      assertEquals(3, lines.size(), lines.toString());
      assertEquals("Shardex refused SHX1201: UPDATE slow_rows SET v = ?", lines.get(1));
      assertTrue(lines.get(2).contains("(route merged, 4 shard calls, ok) (and 2 more not logged since the last line): "
          + "SELECT COUNT(*) FROM slow_rows"), lines.get(2));
      for (String line : lines) {
        assertFalse(line.contains("private-") || line.contains("secret-value"), line);
      }
    }
  }
}
