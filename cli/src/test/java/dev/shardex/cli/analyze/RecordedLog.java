package dev.shardex.cli.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.ShardexError;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the tests that check {@code shardex analyze} against the driver share (the examples' and the
 * framework apps'): an application recorded by a plain MariaDB's general log, the analysis of that
 * log, and each logged statement's EXPLAIN ROUTE through the real driver on a sandbox cluster whose
 * keys are placed as the what-if cluster places them ({@link HashPlacer}). Published in the cli's
 * test-jar.
 */
public final class RecordedLog {
  /** The scored routes, by their JSON names. */
  public static final List<String> ROUTES = Stream.of(Route.SCORED).map(Route::json).toList();
  /** The statements routing judges (the analyzer counts SET, USE, DDL, BEGIN/COMMIT and the rest apart). */
  private static final Pattern SCORED = Pattern.compile(
      "(?is)^\\s*(?:/\\*.*?\\*/\\s*)*(SELECT\\b.*\\bFROM\\b|INSERT|UPDATE|DELETE|REPLACE).*");
  private static final Pattern EXECUTE = Pattern.compile("^.*\\s\\d+\\sExecute\\t.*$");

  private RecordedLog() {}

  /** {@code shardex analyze ARGS --json} in-process; its JSON report. */
  public static Map<String, Object> analyze(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> all = new ArrayList<>(List.of("analyze"));
    all.addAll(List.of(args));
    all.add("--json");
    int code = dev.shardex.cli.ShardexCli.run(all.toArray(String[]::new), new PrintWriter(out, true),
        new PrintWriter(err, true), Map.of(), false);
    assertEquals(0, code, err.toString());
    return Doc.map(MiniJson.parse(out.toString()));
  }

  /** The number at {@code path} (dotted) in a report. */
  public static long count(Map<String, Object> json, String path) {
    return Doc.count(Doc.at(json, path));
  }

  /** A value at {@code path} (dotted) in a report. */
  public static Object at(Map<String, Object> json, String path) {
    return Doc.at(json, path);
  }

  /** The log's Execute entries: server-side prepared statements run with their values. */
  public static long executes(Path general) throws Exception {
    try (Stream<String> lines = Files.lines(general)) {
      return lines.filter(l -> EXECUTE.matcher(l).matches()).count();
    }
  }

  /** Places keys 0..{@code maxKey} of the default key space on {@code cluster} as the what-if cluster does. */
  public static void placeKeys(SandboxCluster cluster, long maxKey) throws SQLException {
    try (HikariDataSource ds = new HikariDataSource()) {
      ds.setJdbcUrl(cluster.directoryUrl());
      ds.setUsername(cluster.user());
      ds.setPassword(cluster.password());
      DirectoryStore store = new DirectoryStore(ds);
      store.init();
      HashPlacer placer = new HashPlacer(cluster.shardCount());
      for (long key = 0; key <= maxKey; key++) {
        store.assign("default", Long.toString(key), placer.shardOf("default", key));
      }
    }
  }

  /**
   * Runs the CREATE TABLE statements of an application's schema script (its declarations in comments)
   * on {@code c}, and not its seed rows: the what-if cluster has none either, so a lookup finds no entry in both.
   */
  public static void createTables(Connection c, String script) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String statement : script.replaceAll("(?m)^--.*$", "").split(";")) {
        if (statement.matches("(?is)\\s*(/\\*.*?\\*/\\s*)?CREATE\\b.*")) {
          s.execute(statement);
        }
      }
    }
  }

  /**
   * Each statement of the log that routing judges, as EXPLAIN ROUTE through {@code shardex} (a
   * jdbc:shardex: connection to a cluster of {@code shards}): how many went to each route.
   */
  public static Map<String, Long> throughTheDriver(Connection shardex, int shards, Path general) throws Exception {
    Map<String, Long> routes = new LinkedHashMap<>();
    ROUTES.forEach(r -> routes.put(r, 0L));
    List<Logged> logged = new ArrayList<>();
    new GeneralLog(general).read(logged::add, (d, t) -> { });
    for (Logged s : logged) {
      if (!s.isQuit() && SCORED.matcher(s.sql()).matches()) {
        routes.merge(explainRoute(shardex, shards, s.sql()).json(), 1L, Long::sum);
      }
    }
    return routes;
  }

  /** Asserts the report's count per route equals the driver's, and returns the statements scored. */
  public static long assertSameRoutes(Map<String, Object> report, Map<String, Long> driver) {
    for (String route : ROUTES) {
      assertEquals(driver.get(route), count(report, "summary." + route + ".count"),
          route + ": analyze " + report.get("summary") + ", driver " + driver);
    }
    return count(report, "summary.scored");
  }

  /**
   * The route of one statement in the analyzer's words, from EXPLAIN ROUTE's operator tree (a row per
   * shard a statement is sent to; a row with no shard per step the driver runs itself, such as a
   * merge): a cross-shard join (a join step) or every shard is "all"; at most one shard is "one", as the analyzer counts it (a lookup whose
   * value has no entry yet names no shard: the row, if any, is on one).
   */
  private static Route explainRoute(Connection c, int shards, String sql) {
    TreeSet<Integer> on = new TreeSet<>();
    boolean join = false;
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ROUTE " + sql)) {
      while (rs.next()) {
        int shard = rs.getInt(1);
        if (rs.wasNull()) {
          join |= String.valueOf(rs.getString("operator")).contains("Join");
        } else {
          on.add(shard);
        }
      }
    } catch (SQLException e) {
      assertTrue(ShardexError.of(e) != null, "a refusal names its SHX id: " + e);
      return Route.REFUSED;
    }
    return join || on.size() == shards ? Route.ALL : on.size() <= 1 ? Route.ONE : Route.SEVERAL;
  }
}
