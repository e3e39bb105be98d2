package dev.shardex.frameworks.mybatis;

import static dev.shardex.cli.analyze.RecordedLog.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.analyze.RecordedLog;
import dev.shardex.cli.analyze.Recording;
import dev.shardex.sandbox.SandboxCluster;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.datasource.pooled.PooledDataSource;
import org.apache.ibatis.io.Resources;
import org.apache.ibatis.jdbc.ScriptRunner;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code shardex analyze} over the MyBatis app's own statements: its scripts and both mappers, called as
 * MyBatisTest and MyBatisClinicTest call them, on a plain MariaDB through plain Connector/J (server-side
 * prepared statements) with the general log on. The analysis of that log, with the schema read from that
 * database and a layout file of the app's declarations, must count per route what EXPLAIN ROUTE of the
 * same statements says through the driver on 4 shards (keys placed as the what-if cluster places them).
 */
class RecordedMyBatisTest {
  /** The app's declarations: schema.sql's leading comments (which a server does not keep) and clinic-schema.sql's table comments. */
  static final String LAYOUT = """
      posts sharded key=user_id
      events sharded key=user_id
      countries global
      owners sharded key=id
      pets sharded key=owner_id lookup=id unique
      visits sharded key=pet_id lookup=id unique
      """;
  private static final int SHARDS = 4;
  @TempDir
  Path dir;

  /** mybatis-config.xml as the tests read it, with its data source pointed at {@code dataSource}. */
  private static SqlSessionFactory factory(javax.sql.DataSource dataSource) throws Exception {
    try (InputStream config = Resources.getResourceAsStream("mybatis-config.xml")) {
      SqlSessionFactory factory = new SqlSessionFactoryBuilder().build(config);
      factory.getConfiguration().setEnvironment(new Environment("plain", new JdbcTransactionFactory(), dataSource));
      return factory;
    }
  }

  private static void runScript(SqlSessionFactory factory, String resource) throws Exception {
    try (SqlSession session = factory.openSession(); Reader script = Resources.getResourceAsReader(resource)) {
      ScriptRunner runner = new ScriptRunner(session.getConnection());
      runner.setLogWriter(null);
      runner.setStopOnError(true);
      runner.runScript(script);
    }
  }

  /** The calls of MyBatisTest and MyBatisClinicTest, without their checks behind the app's back. */
  private static void runTheApp(Recording on) throws Exception {
    PooledDataSource plain = new PooledDataSource("com.mysql.cj.jdbc.Driver", on.appUrl(), on.server().user(),
        on.server().password());
    try {
      runTheApp(factory(plain));
    } finally {
      plain.forceCloseAll();
    }
  }

  private static void runTheApp(SqlSessionFactory factory) throws Exception {
    runScript(factory, "schema.sql");
    runScript(factory, "reference-data.sql");
    runScript(factory, "clinic-schema.sql");
    runScript(factory, "clinic-schema.sql"); // seed data runs again at every start
    try (SqlSession session = factory.openSession(true)) {
      PostMapper posts = session.getMapper(PostMapper.class);
      for (long user = 1; user <= 8; user++) {
        posts.insert(new Post(user, 1, "first of " + user));
        Map<String, Object> event = new HashMap<>(Map.of("userId", user, "kind", "login"));
        posts.insertEvent(event);
        assertEquals(posts.eventId(user, "login"), event.get("id"));
      }
      assertEquals(3, posts.byUsers(List.of(1L, 2L, 3L)).size());
      assertEquals(8, posts.countAll());
      assertEquals(List.of("Belgium", "France", "Netherlands"), posts.countries());
    }
    int[] ids = MyBatisClinicTest.writeOwnerPetAndVisit(factory);
    try (SqlSession session = factory.openSession()) {
      ClinicMapper clinic = session.getMapper(ClinicMapper.class);
      assertEquals("Leo", clinic.pet(1).getName());
      assertEquals("rabies shot", clinic.visit(1).getDescription());
      assertNull(clinic.pet(424_242));
      assertEquals(1, clinic.visitsOfPet(ids[1]).size());
      assertEquals(1, clinic.renamePet(ids[1], "Charles"));
      assertEquals(1, clinic.deleteVisit(ids[2]));
      assertEquals(1, clinic.deletePet(ids[1]));
      assertEquals(0, clinic.deletePet(ids[1]));
      session.commit();
    }
  }

  @Test
  void generalLog_countsAgreeWithTheDriversRoutes() throws Exception {
    try (Recording recording = Recording.of("mybatis-recording", dir, RecordedMyBatisTest::runTheApp)) {
      agreesWithTheDriver(recording);
    }
  }

  private void agreesWithTheDriver(Recording recording) throws Exception {
    Path layout = Files.writeString(dir.resolve("layout.txt"), LAYOUT);
    Map<String, Object> r = recording.analyze("--layout", layout.toString());
    long scored = RecordedLog.assertSameRoutes(r, throughTheDriver(recording.general()));
    System.out.println("MyBatis app's general log: " + RecordedLog.executes(recording.general()) + " Execute entries; " + r.get("summary")
        + "; refused: " + r.get("top_refused"));
    assertTrue(RecordedLog.executes(recording.general()) >= 30, "the mappers' statements are server-side prepared");
    assertTrue(scored >= 40, "statements scored: " + r.get("summary"));
    assertTrue(count(r, "summary.several.count") > 0, "byUsers' IN list, read from its Execute entry: " + r.get("summary"));
    assertTrue(count(r, "summary.all.count") > 0, "countAll and the countries insert: " + r.get("summary"));
  }

  /** The same statements as EXPLAIN ROUTE through the driver, on 4 shards declared by the app's own scripts. */
  private static Map<String, Long> throughTheDriver(Path general) throws Exception {
    SandboxCluster cluster = SandboxCluster.shared("analyze-mybatis", SHARDS);
    RecordedLog.placeKeys(cluster, 50);
    try (Connection c = DriverManager.getConnection("jdbc:shardex:sandbox:analyze-mybatis?shards=" + SHARDS)) {
      for (String script : List.of("schema.sql", "clinic-schema.sql")) {
        try (InputStream in = Resources.getResourceAsStream(script)) {
          RecordedLog.createTables(c, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
      return RecordedLog.throughTheDriver(c, SHARDS, general);
    }
  }
}
