package dev.shardex.driver.fuzz;

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
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Generated and mutated statements and parameter bindings through the real driver: every outcome
 * is a result or an SQLException with an SQLState, never another throwable. The suite runs a
 * fixed-seed slice ({@code fuzz.runs}, default 3,000, seed {@code fuzz.seed}, default 10); the long
 * run is {@code -Dfuzz.runs=100000} (see the README). Statements that could destroy the fixture
 * (DROP, ALTER, ...) or sleep are skipped, not run.
 */
class FuzzTest {
  private static final String[] SEEDS = {
      "SELECT * FROM fz_a WHERE user_id = 1",
      "SELECT v, s FROM fz_a WHERE user_id IN (1, 2, 3) ORDER BY v DESC LIMIT 2",
      "SELECT COUNT(*), SUM(v), AVG(d), MIN(s), MAX(s) FROM fz_a",
      "SELECT s, COUNT(*) FROM fz_a GROUP BY s HAVING COUNT(*) > 1 ORDER BY 2 DESC",
      "SELECT DISTINCT s FROM fz_a ORDER BY s LIMIT 3 OFFSET 1",
      "SELECT COUNT(DISTINCT v), AVG(DISTINCT d) FROM fz_a WHERE v > 0",
      "SELECT a.v, g.name FROM fz_a a JOIN fz_g g ON g.id = a.v WHERE a.user_id = 2",
      "SELECT * FROM fz_a WHERE user_id = ? AND v > ?",
      "SELECT s, SUM(d) FROM fz_a GROUP BY s HAVING SUM(d) < ?",
      "SELECT v FROM fz_a ORDER BY ? DESC LIMIT ?",
      "SELECT v FROM fz_a WHERE user_id IN (?, ?, ?) LIMIT ? OFFSET ?",
      "INSERT INTO fz_a (user_id, v, d, s) VALUES (?, ?, ?, ?)",
      "INSERT INTO fz_a (user_id, v, d, s) VALUES (7, 1, 1.5, 'x'), (8, 2, 2.5, 'y')",
      "UPDATE fz_a SET v = v + 1 WHERE user_id = ?",
      "DELETE FROM fz_a WHERE user_id = 999 AND v = ?",
      "DELETE FROM-- x WHERE user_id = 1",
      "SELECT AVG() FROM fz_a",
      "SELECT * FROM fz_a WHERE v = 1e-99999999999999999999999",
      "SELECT * FROM fz_a WHERE v = 1..",
      "SELECT * FROM fz_a LIMIT 18446744073709551616",
      "/*/* shardex:key=? */ SELECT * FROM fz_a",
      "/* shardex:key=3 */ SELECT * FROM fz_a",
      "/* shardex:shard=1 */ SELECT v FROM fz_a",
      "EXPLAIN ROUTE SELECT * FROM fz_a WHERE user_id = 5",
      "SELECT 1",
      "SET @fz = 1",
      "BEGIN",
      "COMMIT",
      "SELECT v FROM fz_a WHERE user_id = 1; SELECT v FROM fz_a WHERE user_id = 2",
      "SELECT * FROM fz_a WHERE user_id = 1 AND (v = 1 OR (d > 2 AND s LIKE 'a%'))",
      "SELECT * FROM fz_g",
      "SELECT s, MAX(v) - MIN(v) FROM fz_a GROUP BY s",
      "SELECT * FROM fz_a UNION ALL SELECT * FROM fz_a",
      "UPDATE fz_a SET v = ? WHERE user_id = ? AND s = ?",
      "SELECT SUM(v) FROM fz_a WHERE user_id = ? OR ?",
      "DELETE FROM fz_a WHERE user_id IN (?, ?) AND v < 0",
  };
  /** Key values as text or decimals (issue 18): spaces, empty, long digit strings, fractions, exponents. */
  private static final String[] KEY_TEXTS = {"a", "", "'", "\\", "1", "x' OR '1'='1", "\0", "é", "18446744073709551616",
      " 42 ", "\t2\n", "\f3", "42abc", "1e3", "2.5", "-2.5", ".5e1", "1e-400", "1e400", "1e99999999999999999999", "-0",
      "9".repeat(30), "7".repeat(2000), "0".repeat(500) + "1", "9223372036854775807.5", "4e", "+ 7"};
  private static final String[] TOKENS = {"(", ")", "?", "'", "\"", "`", "/*", "*/", "-- ", "#", ";", ",", ".", "-",
      "1e-99999999999999999999999", "18446744073709551616", "1..", "9e999", "NULL", "AVG()", "/* shardex:key=? */",
      "/*/*", "\0", "SELECT", "FROM", "WHERE", "ORDER BY ? DESC", "LIMIT ?", "LIMIT", "OFFSET", "GROUP BY", "HAVING",
      "DISTINCT", "COUNT(*)", "COUNT(DISTINCT v)", "AVG(v)", "SUM(", "UNION ALL", "IN (", "user_id", "user_id =",
      "fz_a", "fz_g", "AND", "OR", "NOT", "=", "<=>", "*", "+", "'\\'", "0x", "_utf8'x'", "INTERVAL 1 DAY", "@x",
      "@@session.", "SET", "BEGIN", "ROLLBACK", "EXPLAIN ROUTE", "JOIN", "ON", "USING (user_id)", "CASE WHEN", "END",
      "é", "\uD83D\uDE00", "\\", "%", "1", "-1", "0", "99999999999999999999", "0.5"};
  private static final String[] FORBIDDEN = {"DROP", "TRUNCATE", "ALTER", "RENAME", "CREATE", "GRANT", "REVOKE",
      "SHUTDOWN", "KILL", "LOCK", "FLUSH", "LOAD", "OUTFILE", "DUMPFILE", "SLEEP", "BENCHMARK", "GET_LOCK", "HANDLER",
      "INSTALL", "PURGE", "RESET", "XA"};

  @Test
  void everyOutcomeIsAResultOrAnSqlExceptionWithAState() throws Exception {
    int runs = Integer.getInteger("fuzz.runs", 2_000);
    long seed = Long.getLong("fuzz.seed", 10);
    TestCluster.run("/* shardex:sharded key=user_id */ CREATE TABLE IF NOT EXISTS fz_a (user_id BIGINT, v INT, d DOUBLE, s VARCHAR(20))",
        "/* shardex:global */ CREATE TABLE IF NOT EXISTS fz_g (id INT, name VARCHAR(20))",
        "INSERT INTO fz_a (user_id, v, d, s) VALUES (1, 1, 1.5, 'a'), (2, 2, 2.5, 'B'), (3, 3, 3.5, 'a'), (4, 4, NULL, NULL)",
        "INSERT INTO fz_g (id, name) VALUES (1, 'one'), (2, 'two')");
    Random random = new Random(seed);
    Map<String, Integer> failures = new TreeMap<>();
    List<String> examples = new ArrayList<>();
    int results = 0;
    int errors = 0;
    int skipped = 0;
    long start = System.nanoTime();
    Connection c = null;
    try {
      for (int i = 0; i < runs; i++) {
        if (c == null || i % 500 == 0) {
          if (c != null) {
            c.close();
          }
          c = TestCluster.connect("shardex.hints=true&shardex.instance=fuzz&shardex.connectTimeoutMs=1000");
        }
        String sql = random.nextInt(50) == 0 ? nested(random) : mutate(random, SEEDS[random.nextInt(SEEDS.length)]);
        if (forbidden(sql)) {
          skipped++;
          continue;
        }
        try {
          run(c, sql, random);
          results++;
        } catch (SQLException e) {
          if (e.getSQLState() == null) {
            record(failures, examples, "SQLException without SQLState: " + e, sql);
          } else if (e.getMessage() != null && e.getMessage().startsWith("Shardex SHX1509")) {
            record(failures, examples, "caught at the boundary, cause not fixed: " + e.getMessage(), sql + " -> " + trace(e.getCause()));
          } else if (e.getMessage() != null && e.getMessage().startsWith("Shardex SHX1412")) {
            record(failures, examples, "pool exhausted: a connection leaked", sql + " -> " + e.getMessage());
          }
          errors++;
        } catch (Throwable t) {
          StackTraceElement top = t.getStackTrace().length > 0 ? t.getStackTrace()[0] : null;
          record(failures, examples, t.getClass().getName() + " at " + top, sql + "  -> " + trace(t));
        }
        try {
          if (!c.getAutoCommit()) {
            c.rollback();
            c.setAutoCommit(true);
          }
        } catch (SQLException e) {
          try {
            c.close();
          } catch (SQLException ignored) {
            // closing gives its shard connections back either way
          }
          c = null; // start afresh
        }
        if ((i + 1) % 10_000 == 0) {
          System.out.printf(Locale.ROOT, "fuzz: %d of %d after %d ms, %d other throwables%n", i + 1, runs,
              (System.nanoTime() - start) / 1_000_000, failures.values().stream().mapToInt(Integer::intValue).sum());
        }
      }
    } finally {
      if (c != null) {
        c.close();
      }
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.printf(Locale.ROOT, "fuzz: seed %d, %d statements in %d ms: %d results, %d SQLExceptions, %d skipped, %d other throwables%n",
        seed, runs, ms, results, errors, skipped, failures.values().stream().mapToInt(Integer::intValue).sum());
    assertTrue(failures.isEmpty(), "not an SQLException with an SQLState: " + failures + "\nexamples:\n" + String.join("\n", examples));
  }

  private static String trace(Throwable t) {
    StringBuilder s = new StringBuilder(t.toString());
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c != t) {
        s.append("\n  caused by ").append(c);
      }
      for (int i = 0; i < Math.min(8, c.getStackTrace().length); i++) {
        s.append("\n    at ").append(c.getStackTrace()[i]);
      }
    }
    return s.toString();
  }

  private static void record(Map<String, Integer> failures, List<String> examples, String kind, String sql) {
    if (failures.merge(kind, 1, Integer::sum) == 1) {
      examples.add(kind + "  <=  " + sql);
    }
  }

  private static boolean forbidden(String sql) {
    String upper = sql.toUpperCase(Locale.ROOT);
    for (String word : FORBIDDEN) {
      if (upper.contains(word)) {
        return true;
      }
    }
    return false;
  }

  private static String nested(Random random) {
    int depth = 1 + random.nextInt(600);
    return "SELECT * FROM fz_a WHERE v IN " + "(".repeat(depth) + "1" + ")".repeat(depth);
  }

  static String mutate(Random random, String seed) {
    StringBuilder s = new StringBuilder(seed);
    int edits = random.nextInt(3);
    for (int e = 0; e < edits; e++) {
      int at = random.nextInt(s.length() + 1);
      switch (random.nextInt(5)) {
        case 0 -> s.insert(at, " " + TOKENS[random.nextInt(TOKENS.length)] + " ");
        case 1 -> s.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
        case 2 -> s.delete(at, Math.min(s.length(), at + 1 + random.nextInt(6)));
        case 3 -> {
          int from = random.nextInt(s.length() + 1);
          int to = Math.min(s.length(), from + random.nextInt(12));
          s.insert(at, s.substring(from, to));
        }
        default -> s.insert(at, (char) (32 + random.nextInt(95)));
      }
    }
    return s.toString();
  }

  private static void run(Connection c, String sql, Random random) throws SQLException {
    boolean prepared = sql.indexOf('?') >= 0 ? random.nextInt(4) != 0 : random.nextInt(4) == 0;
    if (!prepared) {
      try (Statement s = c.createStatement()) {
        s.setQueryTimeout(5);
        s.setMaxRows(random.nextInt(3) == 0 ? 2 : 0);
        drain(s, s.execute(sql));
      }
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setQueryTimeout(5);
      int marks = (int) sql.chars().filter(ch -> ch == '?').count();
      int n = random.nextInt(4) == 0 ? random.nextInt(7) : marks;
      for (int k = 1; k <= n; k++) {
        bind(ps, random.nextInt(20) == 0 ? (random.nextBoolean() ? Integer.MAX_VALUE : random.nextInt(3) - 1) : k, random);
      }
      if (random.nextInt(3) == 0) {
        ps.addBatch();
        ps.executeBatch();
      } else {
        drain(ps, ps.execute());
      }
    }
  }

  private static void bind(PreparedStatement ps, int index, Random random) throws SQLException {
    switch (random.nextInt(14)) {
      case 0 -> ps.setLong(index, random.nextInt(10));
      case 1 -> ps.setLong(index, random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE);
      case 2 -> ps.setInt(index, random.nextInt(5) - 1);
      case 3 -> ps.setDouble(index, new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1e308, -0.0, 2.5}[random.nextInt(6)]);
      case 4 -> ps.setString(index, KEY_TEXTS[random.nextInt(KEY_TEXTS.length)]);
      case 5 -> ps.setNull(index, java.sql.Types.BIGINT);
      case 6 -> ps.setBigDecimal(index, new BigDecimal(new String[] {"1e400", "18446744073709551616", "2.5", "3.0", "-1e-400"}[random.nextInt(5)]));
      case 7 -> ps.setBytes(index, new byte[] {0, (byte) 0xff, 'a'});
      case 8 -> ps.setObject(index, random.nextInt(3));
      case 9 -> ps.setObject(index, null);
      case 10 -> ps.setBoolean(index, random.nextBoolean());
      case 11 -> ps.setTimestamp(index, new java.sql.Timestamp(random.nextLong() % 4_000_000_000_000L));
      case 12 -> ps.setFloat(index, Float.NaN);
      default -> ps.setObject(index, new BigDecimal("-0.5"));
    }
  }

  private static void drain(Statement s, boolean query) throws SQLException {
    for (int guard = 0; guard < 10; guard++) {
      if (query) {
        try (ResultSet rs = s.getResultSet()) {
          int columns = rs.getMetaData().getColumnCount();
          for (int row = 0; row < 1_000 && rs.next(); row++) {
            for (int col = 1; col <= columns; col++) {
              rs.getObject(col);
              rs.getString(col);
              read(rs, col);
            }
          }
        }
      } else if (s.getUpdateCount() < 0) {
        return;
      }
      query = s.getMoreResults();
    }
  }

  /** The typed getters, each of which may refuse a value it cannot convert (an SQLException, then). */
  private static void read(ResultSet rs, int col) {
    for (int getter = 0; getter < 6; getter++) {
      try {
        switch (getter) {
          case 0 -> rs.getLong(col);
          case 1 -> rs.getDouble(col);
          case 2 -> rs.getBigDecimal(col);
          case 3 -> rs.getTimestamp(col);
          case 4 -> rs.getDate(col);
          default -> rs.getBoolean(col);
        }
      } catch (SQLException e) {
        if (e.getSQLState() == null) {
          throw new IllegalStateException("getter " + getter + ": SQLException without SQLState", e);
        }
      }
    }
  }
}
