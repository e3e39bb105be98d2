package dev.shardex.cli.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.ShardexCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code shardex analyze} run in-process on logs written here, over its what-if cluster. */
class AnalyzeCommandTest {
  static final String SCHEMA = """
      CREATE TABLE `authors` (`id` bigint NOT NULL, `name` varchar(50), `email` varchar(100), PRIMARY KEY (`id`));
      CREATE TABLE `posts` (`id` bigint NOT NULL AUTO_INCREMENT, `author_id` bigint NOT NULL, `slug` varchar(50) NOT NULL,
        `title` varchar(50), PRIMARY KEY (`id`), UNIQUE KEY `slug` (`slug`));
      """;

  @TempDir
  Path dir;

  record Run(int code, String out, String err) {
    Map<String, Object> json() {
      return Doc.map(MiniJson.parse(out));
    }
  }

  static Run analyze(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "analyze";
    System.arraycopy(args, 0, all, 1, args.length);
    int code = ShardexCli.run(all, new PrintWriter(out, true), new PrintWriter(err, true), Map.of(), false);
    return new Run(code, out.toString(), err.toString());
  }

  private Path file(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text);
  }

  /** A general log of one connection running these statements, in MariaDB's format. */
  static String generalLog(long connection, String... statements) {
    StringBuilder b = new StringBuilder("Time\t\t    Id Command\tArgument\n");
    b.append("231127 16:30:12\t      ").append(connection).append(" Connect\tapp@localhost on blog using TCP/IP\n");
    for (String s : statements) {
      b.append("\t\t      ").append(connection).append(" Query\t").append(s).append('\n');
    }
    return b.append("\t\t      ").append(connection).append(" Quit\t\n").toString();
  }

  private static long count(Map<String, Object> json, String path) {
    return Doc.count(Doc.at(json, path));
  }

  @Test
  void layoutWithALookup_movesTheRefusedDigestToOneShard() throws Exception {
    Path schema = file("schema.sql", SCHEMA);
    Path log = file("general.log", generalLog(3, "UPDATE posts SET title = 'new' WHERE slug = 'hello'",
        "UPDATE posts SET title = 'again' WHERE slug = 'world'", "SELECT * FROM posts WHERE author_id = 7"));
    Path plain = file("plain.txt", "posts sharded key=author_id\nauthors sharded key=id\n");
    Path lookup = file("lookup.txt", "posts sharded key=author_id lookup=slug unique   # the fix\nauthors sharded key=id\n");

    Map<String, Object> before = analyze("--general", log.toString(), "--schema", schema.toString(), "--layout", plain.toString(),
        "--json").json();
    assertEquals(2, count(before, "summary.refused.count"));
    assertEquals(1, count(before, "summary.one.count"));
    assertEquals("SHX1201", Doc.at(before, "refusals.0.id"));
    assertEquals("UPDATE posts SET title = ? WHERE slug = ?", Doc.at(before, "top_refused.0.digest"));
    assertTrue(String.valueOf(Doc.at(before, "refusals.0.fix")).contains("lookup=COLUMN"));
    assertEquals("slug", Doc.at(before, "suggested_lookups.0.column"));
    assertEquals(Boolean.TRUE, Doc.at(before, "suggested_lookups.0.unique"));

    Map<String, Object> after = analyze("--general", log.toString(), "--schema", schema.toString(), "--layout", lookup.toString(),
        "--json").json();
    assertEquals(0, count(after, "summary.refused.count"));
    assertEquals(3, count(after, "summary.one.count"));
    assertTrue(Doc.list(after.get("top_refused")).isEmpty());
  }

  @Test
  void transactions_spanningShardsCounted_fromConnectionIdsAndCommits() throws Exception {
    HashPlacer placer = new HashPlacer(4);
    long a = 1;
    long same = 2;
    while (placer.shardOf("default", same) != placer.shardOf("default", a)) {
      same++;
    }
    long other = 2;
    while (placer.shardOf("default", other) == placer.shardOf("default", a)) {
      other++;
    }
    Path log = file("general.log", generalLog(5, "BEGIN", "UPDATE authors SET name = 'x' WHERE id = " + a,
        "UPDATE authors SET name = 'y' WHERE id = " + other, "COMMIT", "SET autocommit=0",
        "UPDATE authors SET name = 'x' WHERE id = " + a, "UPDATE authors SET name = 'z' WHERE id = " + same, "COMMIT",
        "SELECT name FROM authors WHERE id = " + a));
    Path layout = file("layout.txt", "authors sharded key=id\n");
    Run run = analyze("--general", log.toString(), "--schema", file("s.sql", SCHEMA).toString(), "--layout", layout.toString(),
        "--json");
    Map<String, Object> json = run.json();
    assertEquals(2, count(json, "transactions.count"), run.out());
    assertEquals(1, count(json, "transactions.spanning"));
    assertEquals(1, count(json, "transactions.by_shards.2"));
    assertEquals(5, count(json, "summary.one.count"));
    assertEquals(4, count(json, "summary.ignored.count"));
  }

  @Test
  void failUnder_exitsTwoBelowTheScore_zeroAtOrAbove() throws Exception {
    Path log = file("general.log", generalLog(3, "SELECT * FROM posts WHERE author_id = 7", "SELECT * FROM posts"));
    Path layout = file("layout.txt", "posts sharded key=author_id\n");
    Path schema = file("s.sql", SCHEMA);
    Run low = analyze("--general", log.toString(), "--schema", schema.toString(), "--layout", layout.toString(), "--fail-under", "90");
    assertEquals(ShardexCli.REFUSED, low.code(), low.err());
    assertTrue(low.err().contains("readiness score 65 is under --fail-under 90"), low.err());
    assertTrue(low.out().contains("Readiness score: 65 / 100"), low.out());
    Run ok = analyze("--general", log.toString(), "--schema", schema.toString(), "--layout", layout.toString(), "--fail-under", "65");
    assertEquals(ShardexCli.OK, ok.code(), ok.err());
  }

  @Test
  void badLayoutLine_isRefusedNamingTheFileAndLine() throws Exception {
    Path log = file("general.log", generalLog(3, "SELECT 1"));
    Path layout = file("layout.txt", "# layout\nposts sharded\n");
    Run run = analyze("--general", log.toString(), "--layout", layout.toString());
    assertEquals(ShardexCli.REFUSED, run.code());
    assertTrue(run.err().contains("SHX1103") && run.err().contains("layout.txt:2"), run.err());
  }

  @Test
  void suggest_proposesKeysFromEqualities_coLocatesJoinedTables_andRoutesWithThem() throws Exception {
    Path log = file("general.log", generalLog(3, "SELECT * FROM posts WHERE author_id = 7",
        "SELECT * FROM posts WHERE author_id = 8", "SELECT name FROM authors WHERE id = 7",
        "SELECT p.title, a.name FROM posts p JOIN authors a ON a.id = p.author_id WHERE p.author_id = 9",
        "INSERT INTO posts (author_id, slug, title) VALUES (7, 'x', 'y')", "SELECT * FROM posts WHERE slug = 'x'",
        "CREATE TABLE countries (code CHAR(2))", "SELECT * FROM countries"));
    Run run = analyze("--general", log.toString(), "--schema", file("s.sql", SCHEMA).toString(), "--suggest", "--json");
    Map<String, Object> json = run.json();
    String layout = String.valueOf(Doc.at(json, "layout.text"));
    assertEquals(Boolean.TRUE, Doc.at(json, "layout.suggested"));
    assertTrue(layout.contains("posts sharded key=author_id lookup=slug unique"), layout);
    assertTrue(layout.contains("authors sharded key=id"), layout);
    assertTrue(layout.contains("countries global"), layout);
    assertEquals(Map.of("authors", "id", "posts", "author_id"), Doc.at(json, "suggested_keys.0.tables"));
    assertEquals(7, count(json, "summary.one.count"), run.out()); // the join stays on one shard: same key space
    assertEquals(0, count(json, "summary.refused.count"));
  }

  @Test
  void digestUrl_performanceSchemaOff_saysHowToTurnItOn_withoutThePassword() {
    dev.shardex.sandbox.SandboxCluster s = dev.shardex.sandbox.SandboxCluster.shared("shardex-analyze", 1);
    Run run = analyze("--digest-url", s.shardUrl(0) + "?user=" + s.user() + "&password=" + s.password());
    assertEquals(ShardexCli.REFUSED, run.code(), run.err());
    assertTrue(run.err().contains("performance_schema is off") && run.err().contains("--performance-schema=ON"), run.err());
    assertFalse(run.err().contains(s.password()) || run.out().contains(s.password()));
  }

  @Test
  void noInput_isAUsageError() {
    Run run = analyze("--shards", "4");
    assertEquals(ShardexCli.USAGE, run.code());
    assertTrue(run.err().contains("no statements to analyze"), run.err());
  }

  @Test
  void digestFingerprints_routeByTheirShape() throws Exception {
    Path json = file("ptqd.json", """
        {"classes": [
          {"fingerprint": "select * from posts where author_id = ?", "query_count": 90, "metrics": {"Query_time": {"sum": "0.9"}}},
          {"fingerprint": "select * from posts where author_id in(?+)", "query_count": 6, "metrics": {"Query_time": {"sum": "0.6"}}},
          {"fingerprint": "select count(*) from posts", "query_count": 4, "metrics": {"Query_time": {"sum": "2.5"}}}
        ]}
        """);
    Map<String, Object> r = analyze("--pt-query-digest", json.toString(), "--schema", file("s.sql", SCHEMA).toString(),
        "--layout", file("l.txt", "posts sharded key=author_id\n").toString(), "--json").json();
    assertEquals(90, count(r, "summary.one.count"));
    assertEquals(6 + 4, count(r, "summary.several.count") + count(r, "summary.all.count"));
    assertEquals(0.9, Doc.share(Doc.at(r, "summary.one.share")), 0.0001);
    assertEquals(0.225, Doc.share(Doc.at(r, "summary.one.time_share")), 0.0001);
    // per table too: posts' 4.0 s are 0.9 one shard, 3.1 several or all
    Map<String, Object> posts = Doc.map(Doc.list(r.get("tables")).get(0));
    assertEquals("posts", posts.get("table"));
    assertEquals(4.0, Doc.share(posts.get("seconds")), 0.0001);
    assertEquals(0.225, Doc.share(Doc.at(posts, "time_share.one")), 0.0001);
    assertEquals(0.775, Doc.share(Doc.at(posts, "time_share.several")) + Doc.share(Doc.at(posts, "time_share.all")), 0.0001);
  }

  /** The HTML report's every figure equals the JSON's, it loads nothing from outside, and it has its three charts. */
  @Test
  void htmlReport_figuresEqualTheJson() throws Exception {
    Path log = file("general.log", generalLog(3, "INSERT INTO posts (author_id, slug, title) VALUES (1, 'a', 'x')",
        "SELECT * FROM posts WHERE author_id = 1", "SELECT * FROM posts WHERE slug = 'a'",
        "UPDATE posts SET title = 'b' WHERE slug = 'a'", "SELECT * FROM posts WHERE author_id IN (1, 2, 3, 4, 5, 6, 7, 8)"));
    Path html = dir.resolve("report.html");
    Run run = analyze("--general", log.toString(), "--schema", file("s.sql", SCHEMA).toString(), "--layout",
        file("l.txt", "posts sharded key=author_id\n").toString(), "--json", "--html", html.toString());
    Map<String, Object> json = run.json();
    String page = Files.readString(html);
    Matcher m = Pattern.compile("data-fig=\"([^\"]+)\" data-value=\"([^\"]*)\">([^<]*)<").matcher(page);
    int figures = 0;
    while (m.find()) {
      figures++;
      Object expected = Doc.at(json, m.group(1));
      assertEquals(Double.parseDouble(String.valueOf(expected)), Double.parseDouble(m.group(2)), 1e-9, m.group(1));
      String shown = m.group(3);
      String asCount = Figures.count(Math.round(Double.parseDouble(m.group(2))));
      String asShare = Figures.percent(Double.parseDouble(m.group(2)));
      assertTrue(shown.equals(asCount) || shown.equals(asShare), m.group(1) + " shows " + shown);
    }
    assertTrue(figures >= 20, "figures: " + figures);
    assertEquals(2, count(json, "summary.one.count"), run.out()); // the INSERT and the read by author_id
    assertEquals(1, count(json, "summary.refused.count"));
    for (String chart : List.of("routing mix", "refusals by reason", "routes per table")) {
      assertTrue(page.contains("<svg width=\"800\"") && page.contains("aria-label=\"" + chart + "\""), chart);
    }
    assertFalse(page.matches("(?s).*(src=|href=|<script|@import|url\\().*"), "the page must load nothing");
  }
}
