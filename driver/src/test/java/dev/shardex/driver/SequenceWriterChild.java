package dev.shardex.driver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Properties;

/**
 * A second JVM for {@link SequenceIdsTest}: inserts {@code rows} rows into sx_jvm through its own
 * driver instance, every fifth with an explicit id counting down from {@code top} (as an import
 * that brings its own ids does: on one server, valid with any number of such writers while the
 * generated ids stay below the lowest top), the rest with ids from the sequence.
 */
public final class SequenceWriterChild {
  private SequenceWriterChild() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    Properties login = new Properties();
    login.setProperty("user", args[1]);
    login.setProperty("password", args[2]);
    long top = Long.parseLong(args[3]);
    int rows = Integer.parseInt(args[4]);
    try (Connection c = DriverManager.getConnection(url, login);
        PreparedStatement generated = c.prepareStatement("INSERT INTO sx_jvm (user_id, origin) VALUES (?, ?)");
        PreparedStatement explicit = c.prepareStatement("INSERT INTO sx_jvm (id, user_id, origin) VALUES (?, ?, ?)")) {
      for (int i = 0; i < rows; i++) {
        PreparedStatement ps = i % 5 == 4 ? explicit : generated;
        int at = 1;
        if (ps == explicit) {
          ps.setLong(at++, top - i / 5);
        }
        ps.setLong(at++, 1 + i % 40);
        ps.setString(at, args[3]);
        ps.executeUpdate();
      }
    }
    System.out.println("inserted " + rows);
  }
}
