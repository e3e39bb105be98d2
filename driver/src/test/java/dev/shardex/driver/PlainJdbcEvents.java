package dev.shardex.driver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * An application as it would be written for one MySQL server: DriverManager, PreparedStatement,
 * plain SQL, and nothing from Shardex but the URL. The placement test drives it.
 */
final class PlainJdbcEvents {
  private final String url;

  PlainJdbcEvents(String url) {
    this.url = url;
  }

  void createSchema() throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS pl_events ("
          + "id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL, body VARCHAR(64), KEY (user_id))");
    }
  }

  void insertUsers(long firstUser, int users, int rowsPerUser) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement("INSERT INTO pl_events (user_id, body) VALUES (?, ?)")) {
      for (long u = firstUser; u < firstUser + users; u++) {
        for (int r = 0; r < rowsPerUser; r++) {
          ps.setLong(1, u);
          ps.setString(2, "event " + r + " of " + u);
          ps.executeUpdate();
        }
      }
    }
  }

  int countFor(long user) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM pl_events WHERE user_id = ?")) {
      ps.setLong(1, user);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  int rename(long user, String body) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement ps = c.prepareStatement("UPDATE pl_events SET body = ? WHERE user_id = ?")) {
      ps.setString(1, body);
      ps.setLong(2, user);
      return ps.executeUpdate();
    }
  }

  int deleteOne(long user) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      return s.executeUpdate("DELETE FROM pl_events WHERE user_id = " + user + " AND body LIKE 'event 0 %'");
    }
  }
}
