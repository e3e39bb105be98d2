package dev.shardex.driver.lookups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.driver.TestCluster;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * One table twice: through Shardex on the 4-shard sandbox, and in a plain database on one shard
 * server (the oracle: one MySQL holding every row). Each statement runs on both; its count and the
 * table's rows afterwards must be equal, each row must live on its key's shard only, and each
 * unique lookup must hold exactly one entry per row, naming the row's key.
 */
final class UpsertTwin implements AutoCloseable {
  static final String ORACLE_DB = "ups_oracle";

  final Connection shardex;
  final Connection oracle;
  private final String table;
  private final String keyColumn;
  private final String columns;

  UpsertTwin(String table, String keyColumn, String columns, String options) throws SQLException {
    this.table = table;
    this.keyColumn = keyColumn;
    this.columns = columns;
    this.shardex = options.isEmpty() ? TestCluster.connect() : TestCluster.connect(options);
    this.oracle = oracle(options);
  }

  /** Creates the table in both (the oracle's without the Shardex declaration). */
  static void create(String ddl, String declaration) throws SQLException {
    try (Connection o = oracle(""); Statement s = o.createStatement()) {
      s.execute(ddl);
      TestCluster.run(ddl + " COMMENT='" + declaration + "'");
    }
  }

  private static Connection oracle(String options) throws SQLException {
    try (Connection admin = TestCluster.sandbox().connectShard(0); Statement s = admin.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS " + ORACLE_DB);
    }
    Properties p = new Properties();
    p.setProperty("user", TestCluster.sandbox().user());
    p.setProperty("password", TestCluster.sandbox().password());
    String url = TestCluster.sandbox().shardUrl(0).replaceFirst("/[^/?]+$", "/" + ORACLE_DB) + (options.isEmpty() ? "" : "?" + options);
    return new com.mysql.cj.jdbc.Driver().connect(url, p);
  }

  /** Runs the statement on both; returns the count, which both gave. */
  long both(String sql, Object... args) throws SQLException {
    long expected = update(oracle, sql, args);
    long actual = update(shardex, sql, args);
    assertEquals(expected, actual, "count of " + sql);
    assertSame(sql);
    return actual;
  }

  static long update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      return ps.executeLargeUpdate();
    }
  }

  /**
   * The rows are equal in both; each lives on its key's shard only; each lookup has exactly the
   * entries the rows make (one per value and key).
   */
  void assertSame(String after) throws SQLException {
    assertRows(after);
    for (Lookup l : TestCluster.cluster(shardex).directory().lookups().of(table)) {
      assertEntries(l, after, true);
    }
  }

  /** As {@link #assertSame}, but a lookup may hold extra entries (a rolled-back transaction's claims). */
  void assertRows(String after) throws SQLException {
    List<String> rows = rows(shardex, "SELECT " + columns + " FROM " + table + " ORDER BY 1");
    assertEquals(rows(oracle, "SELECT " + columns + " FROM " + table + " ORDER BY 1"), rows, "rows after " + after);
    List<String> placed = new ArrayList<>();
    for (int shard = 0; shard < TestCluster.SHARDS; shard++) {
      for (String key : TestCluster.onShard(shard, "SELECT " + keyColumn + " FROM " + table)) {
        assertEquals(shard, shardOf(key), "a row of " + keyColumn + " " + key + " on shard " + shard + " after " + after);
        placed.add(key);
      }
    }
    assertEquals(rows.size(), placed.size(), "rows on the shards after " + after);
    for (Lookup l : TestCluster.cluster(shardex).directory().lookups().of(table)) {
      assertEntries(l, after, false);
    }
  }

  private void assertEntries(Lookup l, String after, boolean exact) throws SQLException {
    var store = TestCluster.cluster(shardex).directory().lookups().store();
    java.util.Map<String, java.util.TreeSet<String>> keys = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (String pair : rows(oracle, "SELECT DISTINCT " + l.column() + ", " + keyColumn + " FROM " + table + " WHERE "
        + l.column() + " IS NOT NULL")) {
      int bar = pair.lastIndexOf('|');
      keys.computeIfAbsent(pair.substring(0, bar), v -> new java.util.TreeSet<>()).add(pair.substring(bar + 1));
    }
    long pairs = 0;
    for (var e : keys.entrySet()) {
      var stored = new java.util.TreeSet<>(store.keys(l, e.getKey()));
      if (exact) {
        assertEquals(e.getValue(), stored, l.describe() + " '" + e.getKey() + "' after " + after);
      } else {
        assertTrue(stored.containsAll(e.getValue()), l.describe() + " '" + e.getKey() + "' after " + after + ": " + stored);
      }
      pairs += e.getValue().size();
    }
    if (exact) {
      assertEquals(pairs, store.count(l), "entries of " + l.describe() + " after " + after);
    }
  }

  int shardOf(Object key) throws SQLException {
    return TestCluster.cluster(shardex).directory().store().lookup("default", key.toString()).shardId();
  }

  /** {@code n} keys from {@code from} on, each placed on a different shard. */
  long[] keysOnDistinctShards(long from, int n) throws SQLException {
    long[] keys = new long[n];
    java.util.Set<Integer> used = new java.util.HashSet<>();
    int found = 0;
    for (long k = from; found < n; k++) {
      int shard = TestCluster.cluster(shardex).directory().routeWrite("default", k).shardId();
      if (used.add(shard)) {
        keys[found++] = k;
      }
    }
    return keys;
  }

  /** A key from {@code from} on, placed on the same shard as {@code key}. */
  long keyOnShardOf(long key, long from) throws SQLException {
    for (long k = from; ; k++) {
      if (TestCluster.cluster(shardex).directory().routeWrite("default", k).shardId() == shardOf(key)) {
        return k;
      }
    }
  }

  static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getString(i));
        }
        out.add(row.toString());
      }
    }
    return out;
  }

  @Override
  public void close() throws SQLException {
    try (Connection a = shardex; Connection b = oracle) {
      // both closed
    }
  }
}
