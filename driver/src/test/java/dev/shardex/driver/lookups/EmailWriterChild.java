package dev.shardex.driver.lookups;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A second JVM for {@link LookupUniquenessTest}: inserts {@code count} users with the emails
 * {@code u0@x} .. through its own driver instance, each user its own key ({@code side} apart from the
 * other JVM's), and prints how many inserts won and how many got MySQL's duplicate-key error.
 */
public final class EmailWriterChild {
  private EmailWriterChild() {}

  public static void main(String[] args) throws Exception {
    Properties login = new Properties();
    login.setProperty("user", args[1]);
    login.setProperty("password", args[2]);
    int side = Integer.parseInt(args[3]);
    int count = Integer.parseInt(args[4]);
    int won = 0;
    int duplicate = 0;
    try (Connection c = DriverManager.getConnection(args[0], login);
        PreparedStatement ps = c.prepareStatement("INSERT INTO lu_users (user_id, email) VALUES (?, ?)")) {
      for (int i = 0; i < count; i++) {
        ps.setLong(1, 1_000_000L * side + i);
        ps.setString(2, "u" + i + "@x");
        try {
          won += ps.executeUpdate();
        } catch (SQLException e) {
          if (e.getErrorCode() != 1062 || !"23000".equals(e.getSQLState())) {
            throw e;
          }
          duplicate++;
        }
      }
    }
    System.out.println("won " + won + " duplicate " + duplicate);
  }
}
