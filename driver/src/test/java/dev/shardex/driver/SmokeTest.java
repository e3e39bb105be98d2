package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void createInsertSelect() throws Exception {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS smoke (user_id BIGINT, v VARCHAR(20))");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO smoke (user_id, v) VALUES (?, ?)")) {
        for (int i = 1; i <= 8; i++) {
          ps.setLong(1, i);
          ps.setString(2, "v" + i);
          assertEquals(1, ps.executeUpdate());
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT v FROM smoke WHERE user_id = 3")) {
        rs.next();
        assertEquals("v3", rs.getString(1));
      }
      long total = 0;
      for (int i = 0; i < 4; i++) {
        total += TestCluster.countOnShard(i, "smoke", null);
      }
      assertEquals(8, total);
    }
  }
}
