package dev.shardex.cli.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.ShardexError;
import dev.shardex.examples.blog.Blog;
import dev.shardex.examples.stats.Stats;
import dev.shardex.sandbox.SandboxCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code shardex analyze} over inputs recorded here from a real server: the blog and stats examples'
 * data code run through plain Connector/J on a plain MariaDB (no Shardex) with the general log, the
 * slow log ({@code long_query_time=0}) and Performance Schema on. Their analysis must agree with
 * what the same statements do through the driver (EXPLAIN ROUTE on a 4-shard sandbox whose keys are
 * placed as the what-if cluster places them), and the three inputs with one another.
 */
class RecordedWorkloadTest {
  static final String LAYOUT = """
      # the examples' own declarations (their CREATE TABLE comments), as a layout file
      authors sharded key=author_id
      posts sharded key=author_id
      comments sharded key=author_id
      plays sharded key=owner_id
      plays_by_hour sharded key=owner_id
      plays_by_country_day sharded key=owner_id
      """;
  private static final Pattern SCORED = Pattern.compile("(?is)^\\s*(?:/\\*.*?\\*/\\s*)*(SELECT\\b.*\\bFROM\\b|INSERT|UPDATE|DELETE|REPLACE).*");

  @TempDir
  static Path dir;
  static SandboxCluster server;
  static Path general;
  static Path slow;
  static Path layout;

  @BeforeAll
  static void record() throws Exception {
    System.setProperty("shardex.sandbox.serverArgs", "--performance-schema=ON");
    try {
      server = SandboxCluster.start("analyze-recording", 1);
    } finally {
      System.clearProperty("shardex.sandbox.serverArgs");
    }
    general = dir.resolve("general.log");
    slow = dir.resolve("slow.log");
    layout = Files.writeString(dir.resolve("layout.txt"), LAYOUT);
    try (Connection admin = server.connectShard(0); Statement s = admin.createStatement()) {
      s.execute("SET GLOBAL log_output = 'FILE'");
      s.execute("SET GLOBAL general_log_file = '" + general + "'");
      s.execute("SET GLOBAL slow_query_log_file = '" + slow + "'");
      s.execute("SET GLOBAL long_query_time = 0");
      s.execute("TRUNCATE performance_schema.events_statements_summary_by_digest");
      s.execute("SET GLOBAL general_log = 1");
      s.execute("SET GLOBAL slow_query_log = 1");
      try (Connection app = server.connectShard(0)) {
        workload(app);
      }
      s.execute("SET GLOBAL general_log = 0");
      s.execute("SET GLOBAL slow_query_log = 0");
    }
  }

  /** The examples' data code as an application runs it: authors, posts, comments, timelines; plays and the ETL. */
  static void workload(Connection c) throws SQLException {
    Blog blog = new Blog(c);
    blog.createSchema();
    for (long author = 1; author <= 12; author++) {
      blog.addAuthor(author, "author " + author);
      for (int p = 0; p < 3; p++) {
        long post = blog.publish(author, "post " + p, "body");
        blog.comment(author, post, (author % 5) + 1, "nice");
      }
      blog.timeline(author);
    }
    try (Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE posts SET title = 'oops'"); // BlogDemo's statement Shardex refuses
    }
    Stats stats = new Stats(c);
    stats.createSchema();
    List<Stats.Play> plays = new ArrayList<>();
    LocalDateTime t = LocalDateTime.of(2026, 11, 20, 10, 0);
    for (int i = 0; i < 60; i++) {
      plays.add(new Stats.Play(1 + i % 6, 1 + i % 3, t.plusMinutes(i * 37L), i % 2 == 0 ? "DE" : "FR"));
    }
    stats.log(plays);
    stats.etl();
    stats.hourly(1, 1, t, t.plusDays(2));
    stats.byCountry(2, 2, t.toLocalDate(), t.toLocalDate().plusDays(2));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** {@code shardex analyze ARGS --json} in-process; its JSON report. */
  private static Map<String, Object> analyze(String... args) {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    List<String> all = new ArrayList<>(List.of("analyze"));
    all.addAll(List.of(args));
    int code = dev.shardex.cli.ShardexCli.run(all.toArray(String[]::new), new java.io.PrintWriter(out, true),
        new java.io.PrintWriter(err, true), Map.of(), false);
    assertEquals(0, code, err.toString());
    return Doc.map(MiniJson.parse(out.toString()));
  }

  private static String dump() throws Exception {
    Path base = Path.of(System.getProperty("shardex.sandbox.cache", System.getProperty("user.home") + "/.cache/shardex"),
        "mariadb-10.11.5");
    String url = server.shardUrl(0);
    String port = url.replaceAll(".*:(\\d+)/.*", "$1");
    Path out = dir.resolve("schema.sql");
    ProcessBuilder pb = new ProcessBuilder(base.resolve("bin/mariadb-dump").toString(), "--no-data", "--host=127.0.0.1",
        "--port=" + port, "--user=" + server.user(), "--password=" + server.password(), server.databaseName())
        .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("LD_LIBRARY_PATH", base.resolve("libs").toString());
    assertEquals(0, pb.start().waitFor(), "mariadb-dump --no-data");
    return out.toString();
  }

  private static long count(Map<String, Object> json, String path) {
    return Doc.count(Doc.at(json, path));
  }

  @Test
  void generalLog_countsAgreeWithTheDriversRoutes() throws Exception {
    Map<String, Object> r = analyze("--general", general.toString(), "--schema", dump(), "--layout", layout.toString(), "--json");
    Map<Route, Long> driver = throughTheDriver();
    for (Route route : Route.SCORED) {
      assertEquals(driver.getOrDefault(route, 0L), count(r, "summary." + route.json() + ".count"), route + ": " + r.get("summary"));
    }
    assertEquals("SHX1201", Doc.at(r, "refusals.0.id"));
    assertEquals("UPDATE posts SET title = ?", Doc.at(r, "top_refused.0.digest"));
    assertTrue(count(r, "summary.one.count") > 100, String.valueOf(r.get("summary")));
    assertTrue(count(r, "summary.all.count") > 0, "the ETL's SELECT DISTINCT owner_id scatters");
    assertTrue(count(r, "transactions.count") >= 6, "the ETL commits a transaction per owner: " + r.get("transactions"));
    assertEquals(0, count(r, "transactions.spanning"), "each ETL transaction stays on its owner's shard");
  }

  /** Each logged statement as EXPLAIN ROUTE through the driver on 4 shards, keys placed as HashPlacer places them. */
  private static Map<Route, Long> throughTheDriver() throws Exception {
    SandboxCluster cluster = SandboxCluster.shared("analyze-agree", 4);
    try (HikariDataSource ds = new HikariDataSource()) {
      ds.setJdbcUrl(cluster.directoryUrl());
      ds.setUsername(cluster.user());
      ds.setPassword(cluster.password());
      DirectoryStore store = new DirectoryStore(ds);
      store.init();
      HashPlacer placer = new HashPlacer(4);
      for (long key = 0; key <= 50; key++) {
        store.assign("default", Long.toString(key), placer.shardOf("default", key));
      }
    }
    Map<Route, Long> routes = new EnumMap<>(Route.class);
    try (Connection c = DriverManager.getConnection("jdbc:shardex:sandbox:analyze-agree?shards=4")) {
      new Blog(c).createSchema();
      new Stats(c).createSchema();
      List<Logged> logged = new ArrayList<>();
      new GeneralLog(general).read(logged::add, (d, t) -> { });
      for (Logged s : logged) {
        if (!s.isQuit() && SCORED.matcher(s.sql()).matches()) {
          routes.merge(explainRoute(c, s.sql()), 1L, Long::sum);
        }
      }
    }
    return routes;
  }

  private static Route explainRoute(Connection c, String sql) {
    TreeSet<Integer> shards = new TreeSet<>();
    boolean join = false;
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
      while (rs.next()) {
        int shard = rs.getInt(1);
        join |= rs.wasNull();
        shards.add(shard);
      }
    } catch (SQLException e) {
      assertTrue(ShardexError.of(e) != null, "a refusal names its SHX id: " + e);
      return Route.REFUSED;
    }
    return join || shards.size() == 4 ? Route.ALL : shards.size() == 1 ? Route.ONE : Route.SEVERAL;
  }

  @Test
  void slowLog_routesAsTheGeneralLog_andWeighsByTime() throws Exception {
    String schema = dump();
    Map<String, Object> g = analyze("--general", general.toString(), "--schema", schema, "--layout", layout.toString(), "--json");
    Map<String, Object> s = analyze("--slow", slow.toString(), "--schema", schema, "--layout", layout.toString(), "--json");
    for (Route route : Route.SCORED) {
      assertEquals(count(g, "summary." + route.json() + ".count"), count(s, "summary." + route.json() + ".count"), route.json());
    }
    assertTrue(Doc.at(s, "summary.one.time_share") != null, "the slow log has Query_time: " + s.get("summary"));
    assertEquals(count(g, "transactions.count"), count(s, "transactions.count"));
  }

  @Test
  void digestTable_readLiveFromTheServer_weighsByCount() throws Exception {
    Map<String, Object> g = analyze("--general", general.toString(), "--schema", dump(), "--layout", layout.toString(), "--json");
    Map<String, Object> d = analyze("--digest-url", server.shardUrl(0) + "?user=" + server.user() + "&password="
        + server.password(), "--digest-schema", server.databaseName(), "--schema-url", server.shardUrl(0) + "?user="
        + server.user() + "&password=" + server.password(), "--layout", layout.toString(), "--json");
    assertEquals(count(g, "summary.scored"), count(d, "summary.scored"), "digests: " + d.get("summary") + d.get("top_refused"));
    assertEquals(count(g, "summary.refused.count"), count(d, "summary.refused.count"));
    assertEquals(count(g, "summary.one.count"), count(d, "summary.one.count"));
    assertTrue(Doc.at(d, "summary.one.time_share") != null, "SUM_TIMER_WAIT weighs by time");
    assertTrue(String.valueOf(d.get("inputs")).contains("digest table at") && !String.valueOf(d.get("inputs")).contains(server.password()));
  }
}
