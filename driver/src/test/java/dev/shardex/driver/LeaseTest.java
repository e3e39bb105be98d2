package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Ticker;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Acceptance: writes are refused once the lease lapses (injected clock) and accepted after a poll. */
class LeaseTest {
  @Test
  void writeRefusedAfterLeaseLapsesAndAcceptedAfterASuccessfulPoll() throws Exception {
    AtomicLong now = new AtomicLong(1_000_000_000L);
    Ticker clock = now::get;
    Properties props = new Properties();
    props.put("shardex.clock", clock);
    props.setProperty("shardex.autoPoll", "false");
    props.setProperty("shardex.leaseMs", "2000");
    props.setProperty("shardex.instance", "lease-test");
    try (Connection c = DriverManager.getConnection(TestCluster.URL, props); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS lease_rows (user_id BIGINT, v INT)");
      s.executeUpdate("INSERT INTO lease_rows (user_id, v) VALUES (61, 1)");

      now.addAndGet(TimeUnit.MILLISECONDS.toNanos(2_500));
      SQLException refused = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE lease_rows SET v = 2 WHERE user_id = 61"));
      assertInstanceOf(SQLTransientConnectionException.class, refused);
      assertEquals("57S01", refused.getSQLState());
      assertTrue(refused.getMessage().startsWith("Shardex SHX1407: write refused: this driver's directory lease lapsed (last successful poll 2500 ms ago, shardex.leaseMs=2000)"),
          refused.getMessage());
      assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO lease_rows (user_id, v) VALUES (62, 1)"));

      try (ResultSet rs = s.executeQuery("SELECT v FROM lease_rows WHERE user_id = 61")) {
        rs.next();
        assertEquals(1, rs.getInt(1), "reads go on from the cache while the lease has lapsed");
      }

      TestCluster.cluster(c).directory().pollNow();
      assertEquals(1, s.executeUpdate("UPDATE lease_rows SET v = 2 WHERE user_id = 61"));
      try (PreparedStatement ps = c.prepareStatement("SELECT v FROM lease_rows WHERE user_id = ?")) {
        ps.setLong(1, 61);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertEquals(2, rs.getInt(1));
        }
      }
    }
  }
}
