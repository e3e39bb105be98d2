package dev.shardex.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The JVM {@link LookupCrashTest} crashes: writes {@code lc_pets} through its own driver instance
 * and dies in the middle. Started with the driver's crash-point property it halts there (exit code
 * 86); the {@code tx*} scenarios halt themselves (exit code 87) inside a transaction after the
 * write, before the commit; {@code loop} writes until the parent kills it (-9). Exit code 0 means
 * the scenario ran to its end without crashing.
 *
 * <p>Arguments: URL USER PASSWORD SCENARIO NUMBERS...: {@code insert ID...} (one multi-row INSERT),
 * {@code delete ID...} (one DELETE), {@code update FROM TO} (id and tag), {@code txinsert ID...},
 * {@code txupdate FROM TO}, {@code loop BASE}.
 */
public final class LookupCrashChild {
  static final int SELF_HALTED = 87;

  private LookupCrashChild() {}

  public static void main(String[] args) throws Exception {
    Properties login = new Properties();
    login.setProperty("user", args[1]);
    login.setProperty("password", args[2]);
    long[] n = new long[args.length - 4];
    for (int i = 0; i < n.length; i++) {
      n[i] = Long.parseLong(args[i + 4]);
    }
    try (Connection c = DriverManager.getConnection(args[0], login)) {
      run(c, args[3], n);
    }
    System.exit(0);
  }

  private static void run(Connection c, String scenario, long[] n) throws SQLException {
    switch (scenario) {
      case "insert" -> insert(c, n);
      case "delete" -> delete(c, n);
      case "update" -> update(c, n[0], n[1]);
      case "txinsert" -> inTransaction(c, () -> insert(c, n));
      case "txupdate" -> inTransaction(c, () -> update(c, n[0], n[1]));
      case "loop" -> loop(c, n[0]);
      default -> throw new IllegalArgumentException(scenario);
    }
  }

  /** The owner (shard key) of a pet: five owners, spread over the shards as their keys were placed. */
  static long owner(long id) {
    return 1 + id % 5;
  }

  static String tag(long id) {
    return "t" + id % 3;
  }

  static String updatedTag(long id) {
    return "u" + id;
  }

  static void insert(Connection c, long... ids) throws SQLException {
    StringBuilder sql = new StringBuilder("INSERT INTO lc_pets (id, owner_id, tag) VALUES ");
    for (int i = 0; i < ids.length; i++) {
      sql.append(i == 0 ? "" : ", ").append("(?, ?, ?)");
    }
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      for (int i = 0; i < ids.length; i++) {
        ps.setLong(3 * i + 1, ids[i]);
        ps.setLong(3 * i + 2, owner(ids[i]));
        ps.setString(3 * i + 3, tag(ids[i]));
      }
      ps.executeUpdate();
    }
  }

  /** One DELETE of the pets, found by their ids (the unique lookup routes it). */
  private static void delete(Connection c, long... ids) throws SQLException {
    String marks = String.join(", ", java.util.Collections.nCopies(ids.length, "?"));
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM lc_pets WHERE id IN (" + marks + ")")) {
      for (int i = 0; i < ids.length; i++) {
        ps.setLong(i + 1, ids[i]);
      }
      ps.executeUpdate();
    }
  }

  /** Changes both looked-up columns of a pet, found by its id (the unique lookup routes it). */
  private static void update(Connection c, long from, long to) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE lc_pets SET id = ?, tag = ? WHERE id = ?")) {
      ps.setLong(1, to);
      ps.setString(2, updatedTag(from));
      ps.setLong(3, from);
      ps.executeUpdate();
    }
  }

  private interface Write {
    void run() throws SQLException;
  }

  private static void inTransaction(Connection c, Write write) throws SQLException {
    c.setAutoCommit(false);
    write.run();
    Runtime.getRuntime().halt(SELF_HALTED);
  }

  /**
   * Inserts pets {@code base, base+1, ...} one by one, changing the id and tag of every third
   * one and deleting every third, until killed; says "running" on stdout after 20 pets.
   */
  private static void loop(Connection c, long base) throws SQLException {
    for (long i = 0; ; i++) {
      insert(c, base + i);
      if (i % 3 == 1) {
        update(c, base + i - 1, base + 100_000 + i);
      } else if (i % 3 == 2) {
        delete(c, base + i - 1);
      }
      if (i == 20) {
        System.out.println("running");
        System.out.flush();
      }
    }
  }
}
