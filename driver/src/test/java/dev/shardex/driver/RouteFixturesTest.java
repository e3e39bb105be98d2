package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden route fixtures, in the manner of Vitess's planner test files: each case in
 * src/test/resources/routes/*.txt is SQL followed by "-> shards" or "!! exact error", checked with
 * EXPLAIN ROUTE through the real driver against the fixed directory state built below.
 */
public class RouteFixturesTest {
  public static final String URL = "jdbc:shardex:sandbox:routes?shards=4&shardex.hints=true&shardex.instance=fixtures";
  public static final List<String> FILES = List.of("select_cases.txt", "dml_cases.txt", "ddl_and_session_cases.txt",
      "unsupported_cases.txt", "cross_shard_cases.txt", "lookup_cases.txt");
  public static Connection deny;
  public static Connection allow;

  @BeforeAll
  public static void fixedDirectoryState() throws SQLException {
    deny = DriverManager.getConnection(URL);
    allow = DriverManager.getConnection(URL + "&shardex.scatterWrites=allow&shardex.instance=fixtures-allow");
    DirectoryStore store = TestCluster.cluster(deny).directory().store();
    store.addKeySpace(new KeySpace("tenant", KeyType.STRING, KeySpace.LEAST_LOADED));
    for (String t : List.of("users:user_id", "posts:author_id", "comments:author_id", "follows:follower_id", "likes:user_id")) {
      String[] p = t.split(":");
      store.declareTable(TableDef.sharded(p[0], KeySpace.DEFAULT, p[1]));
    }
    store.declareTable(TableDef.sharded("orders", "tenant", "tenant_id"));
    store.declareTable(TableDef.sharded("invoices", "tenant", "tenant_id"));
    store.declareTable(TableDef.global("countries"));
    store.declareTable(TableDef.global("tags"));
    store.declareTable(TableDef.single("audit_log", 0));
    store.declareTable(TableDef.single("settings", 2));
    for (long k = 1; k <= 8; k++) {
      store.assign(KeySpace.DEFAULT, Long.toString(k), (int) (k % 4));
    }
    store.assign(KeySpace.DEFAULT, "100", 2);
    store.assign(KeySpace.DEFAULT, "101", 3);
    lookups(TestCluster.cluster(deny).directory());
    try (Statement s = deny.createStatement()) {
      // real tables for the UNION cases: a UNION across shards types its branches' columns from the tables' own
      s.execute("CREATE TABLE IF NOT EXISTS un_posts (id BIGINT, author_id BIGINT, title VARCHAR(40) COLLATE utf8mb4_general_ci)"
          + " COMMENT='shardex:sharded key=author_id'");
      s.execute("CREATE TABLE IF NOT EXISTS un_tags (id BIGINT, name VARCHAR(40) COLLATE utf8mb4_general_ci)"
          + " COMMENT='shardex:global'");
    }
    Map.of("acme", 0, "globex", 1, "initech", 2, "umbrella", 3).forEach((k, s) -> {
      try {
        store.assign("tenant", k, s);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** pets, SHARDED by owner_id, with lookup=id unique and lookup=tag, and entries for lookup_cases.txt (no rows needed). */
  private static void lookups(dev.shardex.directory.Directory dir) throws SQLException {
    dir.declare(TableDef.sharded("pets", KeySpace.DEFAULT, "owner_id"));
    dir.lookups().declare("pets", "id", true);
    dir.lookups().declare("pets", "tag", false);
    dev.shardex.directory.lookup.LookupStore entries = dir.lookups().store();
    List<dev.shardex.directory.lookup.Lookup> l = entries.of("pets");
    for (String[] e : new String[][] {{"0", "1", "1"}, {"0", "2", "2"}, {"0", "5", "5"}, {"1", "cat", "1"}, {"1", "cat", "3"},
        {"1", "dog", "4"}}) {
      entries.claim(l.get(Integer.parseInt(e[0])), e[1], e[2]);
    }
  }

  @AfterAll
  public static void close() throws SQLException {
    deny.close();
    allow.close();
  }

  /** {@code sent} holds "N: sql" lines (=> lines in the file): the exact text shard N must receive. */
  public record Case(String file, int line, String options, String sql, String expectedShards, String expectedError,
      List<String> sent) {}

  @TestFactory
  Stream<DynamicTest> routes() throws IOException {
    List<Case> cases = new ArrayList<>();
    for (String f : FILES) {
      cases.addAll(parse(f));
    }
    long rejected = cases.stream().filter(c -> c.expectedError() != null).count();
    assertTrue(cases.size() >= 150, "at least 150 route fixtures, found " + cases.size());
    assertTrue(rejected >= 30, "at least 30 rejected-statement fixtures, found " + rejected);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.file() + ":" + c.line() + " " + c.sql(), () -> check(c)));
  }

  private static void check(Case c) {
    Connection conn = c.options().contains("shardex.scatterWrites=allow") ? allow : deny;
    String actual;
    List<String> sent = new ArrayList<>();
    try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + c.sql())) {
      TreeSet<Integer> shards = new TreeSet<>();
      boolean join = false;
      while (rs.next()) {
        if (rs.getString(2) == null) {
          continue; // a client operator of the plan's tree (merge, join): it sends nothing
        }
        shards.add(rs.getInt(1));
        join |= rs.wasNull(); // a cross-shard join: its steps are routed when they run
        sent.add((rs.wasNull() ? "join" : Integer.toString(rs.getInt(1))) + ": " + rs.getString(2));
      }
      actual = join ? "-> join" : "-> " + String.join(", ", shards.stream().map(String::valueOf).toList());
    } catch (SQLException e) {
      actual = "!! " + e.getMessage();
    }
    String expected = c.expectedError() != null ? "!! " + c.expectedError() : "-> " + c.expectedShards();
    assertEquals(expected, actual, c.file() + ":" + c.line() + ": " + c.sql());
    if (!c.sent().isEmpty()) {
      assertEquals(c.sent(), sent, c.file() + ":" + c.line() + ": SQL sent to each shard");
    }
  }

  public static List<Case> parse(String file) throws IOException {
    List<Case> out = new ArrayList<>();
    try (InputStream in = RouteFixturesTest.class.getResourceAsStream("/routes/" + file)) {
      if (in == null) {
        throw new IOException("missing fixture file routes/" + file);
      }
      List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
      StringBuilder sql = new StringBuilder();
      String options = "";
      int start = 0;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.startsWith("#") || (line.isBlank() && sql.length() == 0)) {
          continue;
        }
        if (line.startsWith("@")) {
          options = line.substring(1).trim();
        } else if (line.startsWith("=>") && !out.isEmpty()) {
          out.get(out.size() - 1).sent().add(line.substring(2).trim());
        } else if (line.startsWith("->") || line.startsWith("!!")) {
          String expectation = line.substring(2).trim();
          boolean error = line.startsWith("!!");
          out.add(new Case(file, start, options, sql.toString().trim(), error ? null : expectation, error ? expectation : null,
              new ArrayList<>()));
          sql.setLength(0);
          options = "";
        } else {
          if (sql.length() == 0) {
            start = i + 1;
          }
          sql.append(sql.length() == 0 ? "" : "\n").append(line);
        }
      }
    }
    return out;
  }
}
