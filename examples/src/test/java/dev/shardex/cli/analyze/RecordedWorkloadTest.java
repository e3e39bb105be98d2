package dev.shardex.cli.analyze;

import static dev.shardex.cli.analyze.RecordedLog.analyze;
import static dev.shardex.cli.analyze.RecordedLog.at;
import static dev.shardex.cli.analyze.RecordedLog.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.examples.blog.Blog;
import dev.shardex.examples.stats.Stats;
import dev.shardex.sandbox.SandboxCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  @Test
  void generalLog_countsAgreeWithTheDriversRoutes() throws Exception {
    Map<String, Object> r = analyze("--general", general.toString(), "--schema", dump(), "--layout", layout.toString());
    RecordedLog.assertSameRoutes(r, throughTheDriver());
    assertEquals("SHX1201", at(r, "refusals.0.id"));
    assertEquals("UPDATE posts SET title = ?", at(r, "top_refused.0.digest"));
    assertTrue(count(r, "summary.one.count") > 100, String.valueOf(r.get("summary")));
    assertTrue(count(r, "summary.all.count") > 0, "the ETL's SELECT DISTINCT owner_id scatters");
    assertTrue(count(r, "transactions.count") >= 6, "the ETL commits a transaction per owner: " + r.get("transactions"));
    assertEquals(0, count(r, "transactions.spanning"), "each ETL transaction stays on its owner's shard");
  }

  /** Each logged statement as EXPLAIN ROUTE through the driver on 4 shards, keys placed as HashPlacer places them. */
  private static Map<String, Long> throughTheDriver() throws Exception {
    SandboxCluster cluster = SandboxCluster.shared("analyze-agree", 4);
    RecordedLog.placeKeys(cluster, 50);
    try (Connection c = DriverManager.getConnection("jdbc:shardex:sandbox:analyze-agree?shards=4")) {
      new Blog(c).createSchema();
      new Stats(c).createSchema();
      return RecordedLog.throughTheDriver(c, 4, general);
    }
  }

  @Test
  void slowLog_routesAsTheGeneralLog_andWeighsByTime() throws Exception {
    String schema = dump();
    Map<String, Object> g = analyze("--general", general.toString(), "--schema", schema, "--layout", layout.toString());
    Map<String, Object> s = analyze("--slow", slow.toString(), "--schema", schema, "--layout", layout.toString());
    for (String route : RecordedLog.ROUTES) {
      assertEquals(count(g, "summary." + route + ".count"), count(s, "summary." + route + ".count"), route);
    }
    assertTrue(at(s, "summary.one.time_share") != null, "the slow log has Query_time: " + s.get("summary"));
    assertEquals(count(g, "transactions.count"), count(s, "transactions.count"));
  }

  @Test
  void digestTable_readLiveFromTheServer_weighsByCount() throws Exception {
    Map<String, Object> g = analyze("--general", general.toString(), "--schema", dump(), "--layout", layout.toString());
    Map<String, Object> d = analyze("--digest-url", server.shardUrl(0) + "?user=" + server.user() + "&password="
        + server.password(), "--digest-schema", server.databaseName(), "--schema-url", server.shardUrl(0) + "?user="
        + server.user() + "&password=" + server.password(), "--layout", layout.toString());
    assertEquals(count(g, "summary.scored"), count(d, "summary.scored"), "digests: " + d.get("summary") + d.get("top_refused"));
    assertEquals(count(g, "summary.refused.count"), count(d, "summary.refused.count"));
    assertEquals(count(g, "summary.one.count"), count(d, "summary.one.count"));
    assertTrue(at(d, "summary.one.time_share") != null, "SUM_TIMER_WAIT weighs by time");
    assertTrue(String.valueOf(d.get("inputs")).contains("digest table at") && !String.valueOf(d.get("inputs")).contains(server.password()));
  }
}
