package dev.shardex.driver.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.driver.TestCluster;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: a BIGINT key bound as text or as a decimal. Each statement runs through Shardex on
 * {@code kt_posts} and straight on one MariaDB server on {@code kt_ref} (same rows); the rows, counts
 * and stored keys must agree. Before the fix these values were refused (SHX1002) or ended in SHX1509.
 */
class KeyTextTest {
  private static final long[] KEYS = {0, 1, 3, 5, -5, 42, 43, -43, 1000, 12345678, 9007199254740992L,
      9007199254740993L, Long.MAX_VALUE, Long.MIN_VALUE};
  /** Values bound to {@code user_id = ?}: as MySQL compares them with the column. */
  static final Object[] COMPARED = {" 42 ", "", "42abc", "1e3", "42.5", "42.0", "\t42\n", "abc", "0x2A", "-5", "+42",
      ".5e1", "42e", "\f42", "\u000b42", "\u00a042", "\0" + "42", "99999999999999999999", "9007199254740993", "9223372036854775807", "9223372036854775808",
      "-9223372036854775808", "1e-400", "1e400", "1e99999999999999999999", "42.0000000000000000001", "7".repeat(5000),
      "0".repeat(3000) + "42", new BigDecimal("42.0"), new BigDecimal("42.5"), new BigDecimal("1e400"),
      new BigDecimal("-0.5"), new BigDecimal("9007199254740993"), 2.5d, 42.0d, 0x1p53, 1e17, 2.5f, 43.0f, true, 42};
  /** Values bound as an INSERT's key: placed where the server stores them, or refused as it refuses them. */
  static final Object[] STORED = {" 42 ", "7  ", "\t43\n", "1e3", "42.5", "-42.5", "", "42abc", "99999999999999999999",
      "0x10", "1e-400", ".5", "\f7", "\u000b7", "7\0", "+ 7", "9223372036854775807.4", new BigDecimal("2.5"), new BigDecimal("1e400"), 2.5d, 0.5d,
      1.23456785E7, 3.0f, false};

  @BeforeEach
  void tables() throws SQLException {
    String columns = " (user_id BIGINT, post_id INT, score INT, PRIMARY KEY (user_id, post_id))";
    TestCluster.run("DROP TABLE IF EXISTS kt_posts", "/* shardex:sharded key=user_id */ CREATE TABLE kt_posts" + columns);
    try (Connection one = TestCluster.sandbox().connectShard(0); Statement s = one.createStatement()) {
      s.execute("DROP TABLE IF EXISTS kt_ref");
      s.execute("CREATE TABLE kt_ref" + columns);
    }
    for (String table : new String[] {"kt_posts", "kt_ref"}) {
      try (Connection c = connect(table); PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?)")) {
        for (long key : KEYS) {
          for (int post = 1; post <= 2; post++) {
            ps.setLong(1, key);
            ps.setInt(2, post);
            ps.setInt(3, post * 10);
            ps.executeUpdate();
          }
        }
      }
    }
  }

  @Test
  void select_keyBoundAsTextOrDecimal_rowsOfOneServer() throws SQLException {
    List<String> wrong = differences("SELECT user_id, post_id, score FROM %s WHERE user_id = ? ORDER BY user_id, post_id",
        "SELECT COUNT(*), SUM(score) FROM %s WHERE user_id = ?",
        "SELECT user_id, post_id FROM %s WHERE user_id IN (?, 5) ORDER BY user_id, post_id",
        "SELECT post_id FROM %s WHERE score > 0 AND (user_id = ?) ORDER BY post_id");
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  @Test
  void updateAndDelete_keyBoundAsTextOrDecimal_changeWhatOneServerChanges() throws SQLException {
    List<String> wrong = differences("UPDATE %s SET score = score + 1 WHERE user_id = ? AND post_id = 1",
        "DELETE FROM %s WHERE user_id = ? AND post_id = 2");
    String all = "SELECT user_id, post_id, score FROM %s ORDER BY user_id, post_id";
    assertEquals(both(all, "kt_ref", null), both(all, "kt_posts", null));
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  @Test
  void insert_keyBoundAsTextOrDecimal_placedWhereTheServerStoresIt() throws SQLException {
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < STORED.length; i++) {
      Object value = STORED[i];
      int post = 100 + i;
      String sql = "INSERT INTO %s (user_id, post_id, score) VALUES (?, " + post + ", 1)";
      String server = both(sql, "kt_ref", value);
      String shardex = both(sql, "kt_posts", value);
      if (server.startsWith("error")) {
        if (!shardex.startsWith("error 22018")) {
          wrong.add(shown(value) + ": the server refuses it (" + server + "), Shardex " + shardex);
        }
        continue;
      }
      long stored = Long.parseLong(both("SELECT user_id FROM %s WHERE post_id = " + post, "kt_ref", null)
          .replaceAll("[\\[\\]]", ""));
      String found = both("SELECT post_id FROM %s WHERE user_id = ? AND post_id = " + post, "kt_posts", stored);
      if (!shardex.equals(server) || !found.equals("[" + post + "]")) {
        wrong.add(shown(value) + ": the server stores " + stored + " (" + server + "), Shardex " + shardex
            + ", read back by that key: " + found);
      }
    }
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  @Test
  void stringColumn_comparedWithANumber_matchesManyTexts() throws SQLException {
    // why Shardex refuses a number for a STRING key (route fixtures pin the refusal): no one key matches
    try (Connection one = TestCluster.sandbox().connectShard(0); Statement s = one.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS kt_text (k VARCHAR(20))");
      s.execute("DELETE FROM kt_text");
      s.execute("INSERT INTO kt_text VALUES ('42'), ('042'), (' 42'), ('42abc'), ('x')");
      assertEquals(4, TestCluster.countOnShard(0, "kt_text", "k = 42"));
    }
  }

  @Test
  void internalError_beforeAnyShard_saysTheStatementRanOnNoShard() throws SQLException {
    CharSequence broken = new CharSequence() {
      public int length() {
        return 1;
      }

      public char charAt(int index) {
        return '1';
      }

      public CharSequence subSequence(int start, int end) {
        return this;
      }

      @Override
      public String toString() {
        throw new IllegalStateException("a key whose text cannot be read");
      }
    };
    try (Connection c = TestCluster.connect();
        PreparedStatement ps = c.prepareStatement("UPDATE kt_posts SET score = 0 WHERE user_id = ?")) {
      ps.setObject(1, broken);
      SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
      assertTrue(e.getMessage().startsWith("Shardex SHX1509"), e.getMessage());
      assertTrue(e.getMessage().contains("ran on no shard"), e.getMessage());
      assertFalse(e.getMessage().contains("may have run"), e.getMessage());
    }
    String all = "SELECT COUNT(*) FROM %s WHERE score = 0";
    assertEquals("[0]", both(all, "kt_posts", null));
  }

  /** Each statement with each {@link #COMPARED} value, where Shardex's answer is not the server's. */
  private static List<String> differences(String... sqls) throws SQLException {
    List<String> wrong = new ArrayList<>();
    for (String sql : sqls) {
      for (Object value : COMPARED) {
        String actual = both(sql, "kt_posts", value);
        if (value instanceof Double d && Math.abs(d) >= 0x1p53 && actual.equals("error 22018")) {
          continue; // a DOUBLE past 2^53 equals several keys: refused by name, so the reference does not run it either
        }
        String expected = both(sql, "kt_ref", value);
        if (!expected.equals(actual)) {
          wrong.add(shown(value) + " in " + sql + ": server " + expected + ", Shardex " + actual);
        }
      }
    }
    return wrong;
  }

  /** The rows (or update count, or error SQLState) of one statement with the value bound (none when null). */
  private static String both(String sql, String table, Object value) throws SQLException {
    try (Connection c = connect(table); PreparedStatement ps = c.prepareStatement(sql.formatted(table))) {
      if (sql.contains("?")) {
        ps.setObject(1, value);
      }
      if (!ps.execute()) {
        return "count " + ps.getUpdateCount();
      }
      return rows(ps.getResultSet());
    } catch (SQLException e) {
      return "error " + e.getSQLState() + (e.getMessage().contains("SHX1509") ? " " + e.getMessage() : "");
    }
  }

  private static String rows(ResultSet rs) throws SQLException {
    List<String> rows = new ArrayList<>();
    int columns = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<String> row = new ArrayList<>();
      for (int i = 1; i <= columns; i++) {
        row.add(rs.getString(i));
      }
      rows.add(String.join(",", row));
    }
    return rows.toString();
  }

  private static Connection connect(String table) throws SQLException {
    return table.equals("kt_ref") ? TestCluster.sandbox().connectShard(0) : TestCluster.connect();
  }

  private static String shown(Object value) {
    String s = String.valueOf(value);
    return value.getClass().getSimpleName() + " '" + (s.length() > 30 ? s.substring(0, 30) + "..." : s) + "'";
  }
}
