package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 18: LAST_INSERT_ID(), @@identity, ROW_COUNT() and FOUND_ROWS() answer per logical
 * connection as one MariaDB server answers them. The same script runs on one plain server (the
 * oracle, through Connector/J with the options Shardex gives its shard connections) and through
 * Shardex on the 4-shard sandbox, in autocommit and in a transaction, as plain and as prepared
 * statements; every observation must be equal. Ids differ between the two (Shardex fills them from
 * its directory sequence), so an id is observed as which row it is: "the id of events(1, login)".
 */
class LastInsertIdTest {
  private static final String[] TABLES = {
      "CREATE TABLE IF NOT EXISTS lid_events (id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL,"
          + " kind VARCHAR(20) NOT NULL, UNIQUE KEY lid_events_uk (user_id, kind)) COMMENT='shardex:sharded key=user_id'",
      "CREATE TABLE IF NOT EXISTS lid_none (id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id BIGINT NOT NULL,"
          + " kind VARCHAR(20) NOT NULL) COMMENT='shardex:sharded key=user_id sequence=none'",
      "CREATE TABLE IF NOT EXISTS lid_users (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL)"
          + " COMMENT='shardex:sharded key=id'",
      "CREATE TABLE IF NOT EXISTS lid_posts (post_id BIGINT NOT NULL PRIMARY KEY, user_id BIGINT NOT NULL,"
          + " title VARCHAR(20)) COMMENT='shardex:sharded key=user_id'",
      "CREATE TABLE IF NOT EXISTS lid_global (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL)"
          + " COMMENT='shardex:global'",
      "CREATE TABLE IF NOT EXISTS lid_seq (name VARCHAR(10) NOT NULL PRIMARY KEY, v BIGINT NOT NULL)"
          + " COMMENT='shardex:single'"};
  private static final String[] RESET = {"TRUNCATE TABLE lid_events", "TRUNCATE TABLE lid_none", "TRUNCATE TABLE lid_users",
      "TRUNCATE TABLE lid_posts", "TRUNCATE TABLE lid_global", "TRUNCATE TABLE lid_seq",
      "INSERT INTO lid_seq (name, v) VALUES ('a', 10)"};

  private static SandboxCluster oracle;

  @BeforeAll
  static void tables() throws SQLException {
    oracle = SandboxCluster.shared("oracle", 1);
    try (Connection o = oracleConnection(); Statement s = o.createStatement()) {
      for (String t : TABLES) {
        s.execute(t);
      }
    }
    TestCluster.run(TABLES);
    TestCluster.run(RESET);
  }

  /** A plain server, through Connector/J with the options Shardex sets on its shard pools. */
  private static Connection oracleConnection() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", oracle.user());
    p.setProperty("password", oracle.password());
    p.setProperty("sslMode", "DISABLED");
    p.setProperty("allowPublicKeyRetrieval", "true");
    p.setProperty("useLocalSessionState", "true");
    p.setProperty("cachePrepStmts", "true");
    p.setProperty("allowMultiQueries", "true");
    return new com.mysql.cj.jdbc.Driver().connect(oracle.shardUrl(0), p);
  }

  @ParameterizedTest(name = "autocommit={0}, prepared={1}")
  @CsvSource({"true, false", "true, true", "false, false", "false, true"})
  void sessionFunctions_answerAsOneServer(boolean autocommit, boolean prepared) throws SQLException {
    List<String> expected;
    List<String> actual;
    try (Connection main = oracleConnection(); Connection side = oracleConnection()) {
      expected = new Script(main, side, autocommit, prepared).run();
    }
    try (Connection main = TestCluster.connect(); Connection side = TestCluster.connect()) {
      actual = new Script(main, side, autocommit, prepared).run();
    }
    StringBuilder diff = new StringBuilder();
    for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
      String e = i < expected.size() ? expected.get(i) : "(none)";
      String a = i < actual.size() ? actual.get(i) : "(none)";
      if (!e.equals(a) && !refusedByName(e, a)) {
        diff.append("\n  one server: ").append(e).append("\n  Shardex:    ").append(a);
      }
    }
    assertEquals("", diff.toString(), "observations that differ");
    assertTrue(actual.stream().anyMatch(a -> a.contains("refused Shardex SHX1209") && a.contains("FOUND_ROWS()")
        && a.contains("groups or de-duplicates")), "FOUND_ROWS() after a grouped scatter is refused by name: " + actual);
  }

  /** The issue's report: 8 of 8 users read 0 after their own INSERT, in autocommit and in a transaction. */
  @ParameterizedTest(name = "autocommit={0}")
  @CsvSource({"true", "false"})
  void issue18_eachUserReadsTheIdOfItsOwnRow(boolean autocommit) throws SQLException {
    try (Connection c = TestCluster.connect();
        PreparedStatement insert = c.prepareStatement("INSERT INTO lid_events (user_id, kind) VALUES (?, 'login')");
        PreparedStatement last = c.prepareStatement("SELECT LAST_INSERT_ID()")) {
      c.setAutoCommit(autocommit);
      for (long user = 1800 + (autocommit ? 0 : 10); user < 1808 + (autocommit ? 0 : 10); user++) {
        insert.setLong(1, user);
        insert.executeUpdate();
        long read;
        try (ResultSet rs = last.executeQuery()) {
          rs.next();
          read = rs.getLong(1);
        }
        try (Statement s = c.createStatement()) { // the row as this connection sees it (a transaction's too)
          assertEquals(value(s, "SELECT id FROM lid_events WHERE user_id = " + user + " AND kind = 'login'"), read,
              "user " + user);
        }
      }
      if (!autocommit) {
        c.commit();
      }
    }
  }

  @org.junit.jupiter.api.Test
  void refusedByName_whereTheDriverCannotKnowTheValue() throws SQLException {
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.executeQuery("SELECT user_id FROM lid_events").close();
      assertRefused(s, "SELECT FOUND_ROWS()", "FOUND_ROWS() after 'SELECT user_id FROM lid_events'");
      assertEquals(-1, value(s, "SELECT ROW_COUNT()"), "the refused statement failed: ROW_COUNT() is -1");
      assertRefused(s, "SELECT LAST_INSERT_ID(user_id) FROM lid_events", "LAST_INSERT_ID(expr) in 'SELECT LAST_INSERT_ID(user_id)");
      s.addBatch("INSERT INTO lid_posts (post_id, user_id) VALUES (77, 77)");
      s.addBatch("INSERT INTO lid_posts (post_id, user_id) VALUES (78, LAST_INSERT_ID())");
      assertRefused(s, null, "LAST_INSERT_ID(), ROW_COUNT() or FOUND_ROWS() in the batch entry");
      // one round trip that fails at its second part: the first ran, its result is lost with the error
      String failing = "INSERT INTO lid_posts (post_id, user_id) VALUES (500, 20); INSERT INTO lid_posts (post_id, user_id)"
          + " VALUES (500, 20)";
      org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLIntegrityConstraintViolationException.class, () -> s.execute(failing));
      assertRefused(s, "SELECT LAST_INSERT_ID()", "LAST_INSERT_ID() after 'INSERT INTO lid_posts");
    }
  }

  @org.junit.jupiter.api.Test
  void explicitId_inATableTheCatalogDoesNotKnow_leavesLastInsertIdAsItWas() throws SQLException {
    int home;
    try (Connection c = TestCluster.connect()) {
      home = TestCluster.cluster(c).directory().homeShard();
    }
    try (Connection shard = TestCluster.sandbox().connectShard(home); Statement s = shard.createStatement()) {
      s.execute("CREATE TABLE lid_outside (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT)"); // made outside Shardex
    }
    try (Connection c = TestCluster.connect(); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO lid_outside (v) VALUES (1)");
      long generated = value(s, "SELECT LAST_INSERT_ID()");
      assertEquals(TestCluster.onShard(home, "SELECT id FROM lid_outside WHERE v = 1"), List.of(Long.toString(generated)));
      s.executeUpdate("INSERT INTO lid_outside (id, v) VALUES (100, 2)");
      assertEquals(generated, value(s, "SELECT LAST_INSERT_ID()"), "an explicit id generates nothing");
    }
  }

  @org.junit.jupiter.api.Test
  void batch_lastInsertIdIsTheLastFilledId() throws SQLException {
    try (Connection c = TestCluster.connect(); PreparedStatement ps = c.prepareStatement(
        "INSERT INTO lid_events (user_id, kind) VALUES (?, 'batch')"); Statement s = c.createStatement()) {
      for (long user = 1900; user < 1904; user++) {
        ps.setLong(1, user);
        ps.addBatch();
      }
      ps.executeBatch();
      assertEquals(1, value(s, "SELECT ROW_COUNT()"), "the last entry's count");
      assertEquals(idOnShards("SELECT id FROM lid_events WHERE user_id = 1903 AND kind = 'batch'"),
          value(s, "SELECT LAST_INSERT_ID()"), "the last entry's id");
    }
  }

  /** A sequence-filled id, read on the shards themselves (unique across them). */
  private static long idOnShards(String sql) throws SQLException {
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      List<String> ids = TestCluster.onShard(shard, sql);
      if (!ids.isEmpty()) {
        return Long.parseLong(ids.get(0));
      }
    }
    return -1;
  }

  private static long value(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void assertRefused(Statement s, String sql, String start) {
    SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
        () -> {
          if (sql == null) {
            s.executeBatch();
          } else {
            s.executeQuery(sql).close();
          }
        });
    assertTrue(e.getMessage().startsWith("Shardex SHX1209: " + start), e.getMessage());
    assertEquals("0AS00", e.getSQLState());
  }

  /** The one place Shardex may differ: FOUND_ROWS() after a SELECT across shards that groups, refused by name. */
  private static boolean refusedByName(String expected, String actual) {
    return expected.startsWith("?? ") && actual.startsWith(expected.substring(0, expected.indexOf(" =>")))
        && actual.contains("refused Shardex SHX1209");
  }

  /** The script, run on one side: what a user would check after each statement. */
  private static final class Script {
    private final Connection c;
    private final Connection side;
    private final boolean autocommit;
    private final boolean prepared;
    private final List<String> seen = new ArrayList<>();

    Script(Connection c, Connection side, boolean autocommit, boolean prepared) {
      this.c = c;
      this.side = side;
      this.autocommit = autocommit;
      this.prepared = prepared;
    }

    List<String> run() throws SQLException {
      try (Statement s = side.createStatement()) {
        for (String r : RESET) {
          s.execute(r);
        }
      }
      c.setAutoCommit(autocommit);
      value("SELECT LAST_INSERT_ID(), ROW_COUNT()");
      exec("INSERT INTO lid_events (user_id, kind) VALUES (1, 'login')");
      id("SELECT LAST_INSERT_ID()", "lid_events", "user_id = 1 AND kind = 'login'");
      id("SELECT @@identity, @@last_insert_id, @@session.last_insert_id, last_insert_id() AS x", "lid_events",
          "user_id = 1 AND kind = 'login'");
      value("SELECT ROW_COUNT()");
      exec("INSERT INTO lid_events (user_id, kind) VALUES (2, 'a'), (3, 'a'), (4, 'a'), (5, 'a')");
      value("SELECT ROW_COUNT()");
      id("SELECT LAST_INSERT_ID()", "lid_events", "user_id = 2 AND kind = 'a'");
      exec("INSERT INTO lid_events (id, user_id, kind) VALUES (900000, 6, 'explicit')");
      id("SELECT LAST_INSERT_ID()", "lid_events", "user_id = 2 AND kind = 'a'");
      exec("INSERT INTO lid_events (user_id, kind) VALUES (1, 'login')"); // duplicate: fails
      value("SELECT ROW_COUNT()");
      id("SELECT LAST_INSERT_ID()", "lid_events", "user_id = 2 AND kind = 'a'");
      value("SELECT LAST_INSERT_ID(5)");
      value("SELECT LAST_INSERT_ID(), ROW_COUNT()");
      value("SELECT LAST_INSERT_ID(name) FROM lid_seq WHERE name = 'none'"); // no row: unchanged
      value("SELECT LAST_INSERT_ID()");
      // a new user's id, used as the key of a row on the user's shard
      exec("INSERT INTO lid_users (name) VALUES ('ann')");
      id("SELECT LAST_INSERT_ID()", "lid_users", "name = 'ann'");
      exec("INSERT INTO lid_posts (post_id, user_id, title) VALUES (1, LAST_INSERT_ID(), 'hello')");
      same("SELECT user_id FROM lid_posts WHERE title = 'hello'", "SELECT id FROM lid_users WHERE name = 'ann'");
      id("SELECT LAST_INSERT_ID()", "lid_users", "name = 'ann'");
      // the shards' own AUTO_INCREMENT: a sequence=none table, a GLOBAL table
      exec("INSERT INTO lid_none (user_id, kind) VALUES (7, 'n')");
      id("SELECT LAST_INSERT_ID()", "lid_none", "user_id = 7 AND kind = 'n'");
      exec("INSERT INTO lid_none (user_id, kind) VALUES (8, 'n'), (9, 'n'), (10, 'n')");
      id("SELECT LAST_INSERT_ID()", "lid_none", "user_id = 8 AND kind = 'n'");
      exec("INSERT INTO lid_none (id, user_id, kind) VALUES (700000, 9, 'explicit')");
      id("SELECT LAST_INSERT_ID()", "lid_none", "user_id = 8 AND kind = 'n'");
      exec("INSERT INTO lid_global (name) VALUES ('g1')");
      id("SELECT LAST_INSERT_ID()", "lid_global", "name = 'g1'");
      // MySQL's sequence idiom
      exec("UPDATE lid_seq SET v = LAST_INSERT_ID(v + 1) WHERE name = 'a'");
      value("SELECT LAST_INSERT_ID(), ROW_COUNT()");
      exec("UPDATE lid_seq SET v = LAST_INSERT_ID(v + 1) WHERE name = 'nope'");
      value("SELECT LAST_INSERT_ID(), ROW_COUNT()");
      // ROW_COUNT after each kind of statement
      exec("UPDATE lid_events SET kind = kind WHERE user_id = 2");
      value("SELECT ROW_COUNT()");
      exec("UPDATE lid_events SET kind = 'b' WHERE user_id IN (3, 4)");
      value("SELECT ROW_COUNT()");
      exec("DELETE FROM lid_events WHERE user_id = 5");
      value("SELECT ROW_COUNT()");
      exec("SELECT kind FROM lid_events WHERE user_id = 2");
      value("SELECT ROW_COUNT()");
      exec("UPDATE lid_events SET nosuch = 1 WHERE user_id = 2");
      value("SELECT ROW_COUNT()");
      exec("SET @x = 1");
      value("SELECT ROW_COUNT()");
      // FOUND_ROWS: one shard, a scatter concatenated, a scatter merged, a scatter that groups (refused)
      exec("INSERT INTO lid_events (user_id, kind) VALUES (1, 'b'), (1, 'c'), (1, 'd')");
      exec("SELECT SQL_CALC_FOUND_ROWS kind FROM lid_events WHERE user_id = 1 ORDER BY kind LIMIT 2");
      value("SELECT FOUND_ROWS()");
      exec("SELECT SQL_CALC_FOUND_ROWS user_id, kind FROM lid_events ORDER BY user_id, kind LIMIT 3");
      value("SELECT FOUND_ROWS()");
      exec("SELECT SQL_CALC_FOUND_ROWS user_id FROM lid_events WHERE kind = 'b'");
      value("SELECT FOUND_ROWS()");
      exec("UPDATE lid_events SET kind = kind WHERE user_id = 1");
      value("SELECT FOUND_ROWS()"); // not a SELECT: unchanged (the rows of the SELECT FOUND_ROWS() before it: 1)
      exec("SELECT SQL_CALC_FOUND_ROWS kind, COUNT(*) FROM lid_events GROUP BY kind ORDER BY kind LIMIT 1");
      value("?? SELECT FOUND_ROWS()");
      // reading the values into a session variable, and a multi-statement text
      exec("SET @last = LAST_INSERT_ID()");
      value("SELECT @last = LAST_INSERT_ID(), LAST_INSERT_ID() > 0 AS positive");
      multi("INSERT INTO lid_events (user_id, kind) VALUES (11, 'm'); SELECT LAST_INSERT_ID()", "lid_events",
          "user_id = 11 AND kind = 'm'");
      multi("INSERT INTO lid_none (user_id, kind) VALUES (12, 'm'); INSERT INTO lid_none (user_id, kind) VALUES (12, 'm2')",
          null, null);
      id("SELECT LAST_INSERT_ID()", "lid_none", "user_id = 12 AND kind = 'm2'");
      bound("INSERT INTO lid_events (user_id, kind) VALUES (?, ?)", 13, "p");
      id("SELECT LAST_INSERT_ID()", "lid_events", "user_id = 13 AND kind = 'p'");
      bound("INSERT INTO lid_posts (post_id, user_id, title) VALUES (?, ?, 'bound')", 2, 13);
      value("SELECT ROW_COUNT()");
      if (!autocommit) {
        c.commit();
      }
      return seen;
    }

    /** Runs a statement; records its update count, its row count, or its error code. */
    private void exec(String sql) throws SQLException {
      seen.add(sql + " => " + describe(sql, st -> {
        if (!(st instanceof PreparedStatement ps ? ps.execute() : st.execute(sql))) {
          return "count " + st.getUpdateCount();
        }
        int rows = 0;
        try (ResultSet rs = st.getResultSet()) {
          while (rs.next()) {
            rows++;
          }
        }
        return rows + " rows";
      }));
    }

    private void bound(String sql, Object... args) throws SQLException {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < args.length; i++) {
          ps.setObject(i + 1, args[i]);
        }
        seen.add(sql + " => count " + ps.executeUpdate());
      }
    }

    /** A query whose first row is compared as it is: labels and values. */
    private void value(String sql) throws SQLException {
      String text = sql.startsWith("?? ") ? sql.substring(3) : sql;
      seen.add(sql + " => " + describe(text, st -> {
        try (ResultSet rs = query(st, text)) {
          return rs.next() ? row(rs) : "no row";
        }
      }));
    }

    /** A query whose values are ids: recorded as "the id of" the row the test names, or as themselves. */
    private void id(String sql, String table, String where) throws SQLException {
      long id = lookup("SELECT id FROM " + table + " WHERE " + where);
      seen.add(sql + " => " + describe(sql, st -> {
        try (ResultSet rs = query(st, sql)) {
          rs.next();
          return ids(rs, id, table + "(" + where + ")");
        }
      }));
    }

    private String ids(ResultSet rs, long id, String row) throws SQLException {
      StringBuilder out = new StringBuilder();
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        long v = rs.getLong(i);
        out.append(md.getColumnLabel(i)).append('=').append(v == id ? "id of " + row : "other id").append(' ');
      }
      return out.toString();
    }

    private void same(String a, String b) throws SQLException {
      seen.add(a + " = " + b + " => " + (lookup(a) == lookup(b)));
    }

    /** A multi-statement text, every result walked; a SELECT's first value observed as an id. */
    private void multi(String sql, String table, String where) throws SQLException {
      StringBuilder out = new StringBuilder(sql + " =>");
      try (Statement st = c.createStatement()) {
        boolean query = st.execute(sql);
        while (query || st.getUpdateCount() != -1) {
          if (query) {
            try (ResultSet rs = st.getResultSet()) {
              rs.next();
              out.append(' ').append(ids(rs, lookup("SELECT id FROM " + table + " WHERE " + where), table));
            }
          } else {
            out.append(" count ").append(st.getUpdateCount());
          }
          query = st.getMoreResults();
        }
      }
      seen.add(out.toString());
    }

    /** A value read on the side connection, so the script's own session values stay as they are. */
    private long lookup(String sql) throws SQLException {
      try (Statement s = side.createStatement(); ResultSet rs = s.executeQuery(sql)) {
        return rs.next() ? rs.getLong(1) : -1;
      }
    }

    private ResultSet query(Statement st, String sql) throws SQLException {
      return st instanceof PreparedStatement ps ? ps.executeQuery() : st.executeQuery(sql);
    }

    private String row(ResultSet rs) throws SQLException {
      StringBuilder out = new StringBuilder();
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        out.append(md.getColumnLabel(i)).append('=').append(rs.getString(i)).append(' ');
      }
      return out.toString();
    }

    private interface Body {
      String on(Statement st) throws SQLException;
    }

    /** Runs the body on a plain or a prepared statement; an error is recorded by its code (or Shardex's id). */
    private String describe(String sql, Body body) {
      try (Statement st = prepared ? c.prepareStatement(sql) : c.createStatement()) {
        return body.on(st);
      } catch (SQLException e) {
        String m = String.valueOf(e.getMessage());
        return m.startsWith("Shardex SHX") ? "refused " + m : "error " + e.getErrorCode();
      }
    }
  }
}
