package dev.shardex.frameworks.petclinic;

import static dev.shardex.cli.analyze.RecordedLog.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shardex.cli.analyze.RecordedLog;
import dev.shardex.cli.analyze.Recording;
import dev.shardex.sandbox.SandboxCluster;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code shardex analyze} over PetClinic's own statements. The app (its schema.sql, data.sql and the
 * Hibernate statements of ClinicServiceTests, each test in a transaction rolled back as @DataJpaTest
 * runs it) runs on a plain MariaDB through plain Connector/J with server-side prepared statements and
 * the general log on; the analysis of that log, with the schema and its table comments read from that
 * database, must count per route what EXPLAIN ROUTE of the same statements says through the driver
 * on 4 shards (keys placed as the what-if cluster places them).
 */
class RecordedPetClinicTest {
  private static final int SHARDS = 4;
  @TempDir
  Path dir;

  /** PetClinic as its tests run it, on the plain server: only the URL differs (command-line arguments win over application.properties). */
  private static void runTheApp(Recording on) throws Exception {
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PetClinicApplication.class).run(
        "--spring.datasource.url=" + on.appUrl(),
        "--spring.datasource.username=" + on.server().user(), "--spring.datasource.password=" + on.server().password(),
        "--spring.main.banner-mode=off")) {
      ClinicServiceTests tests = new ClinicServiceTests();
      tests.owners = app.getBean(OwnerRepository.class);
      tests.vets = app.getBean(VetRepository.class);
      TransactionTemplate tx = new TransactionTemplate(app.getBean(PlatformTransactionManager.class));
      Method[] methods = ClinicServiceTests.class.getDeclaredMethods();
      Arrays.sort(methods, Comparator.comparing(Method::getName));
      for (Method m : methods) {
        if (m.isAnnotationPresent(Test.class)) {
          tx.executeWithoutResult(status -> {
            status.setRollbackOnly();
            invoke(m, tests);
          });
        }
      }
      PetRepository pets = app.getBean(PetRepository.class); // PetClinicShardsTest's reads and delete by a pet's own id
      assertThat(pets.findById(7)).isPresent();
      assertThat(pets.findById(999)).isEmpty();
      assertThat(pets.deleteByIdOnly(999)).isZero();
    }
  }

  private static void invoke(Method test, ClinicServiceTests on) {
    try {
      test.invoke(on);
    } catch (InvocationTargetException e) {
      throw new AssertionError(test.getName() + " failed on the plain server", e.getCause());
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void generalLog_countsAgreeWithTheDriversRoutes() throws Exception {
    try (Recording recording = Recording.of("petclinic-recording", dir, RecordedPetClinicTest::runTheApp)) {
      agreesWithTheDriver(recording);
    }
  }

  private void agreesWithTheDriver(Recording recording) throws Exception {
    Map<String, Object> r = recording.analyze();
    long scored = RecordedLog.assertSameRoutes(r, throughTheDriver(recording.general()));
    System.out.println("PetClinic's general log: " + RecordedLog.executes(recording.general()) + " Execute entries; " + r.get("summary")
        + "; refused: " + r.get("top_refused"));
    assertThat(RecordedLog.executes(recording.general())).as("server-side prepared statements in the log").isGreaterThan(20);
    assertThat(scored).as("statements scored: %s", r.get("summary")).isGreaterThan(80);
    assertThat(String.valueOf(r.get("top_scattering"))).as("Hibernate's search, read from its Execute entries")
        .contains("from owners o1_0 where o1_0.last_name like ? escape ?");
    assertThat(count(r, "summary.one.count")).as("by key or lookup: %s", r.get("summary")).isGreaterThan(20);
    assertThat(count(r, "summary.all.count")).as("global writes, pets joined to visits: %s", r.get("summary")).isPositive();
  }

  /** The same statements as EXPLAIN ROUTE through the driver, on 4 shards declared by the same schema.sql. */
  private static Map<String, Long> throughTheDriver(Path general) throws Exception {
    SandboxCluster cluster = SandboxCluster.shared("analyze-petclinic", SHARDS);
    RecordedLog.placeKeys(cluster, 50);
    try (Connection c = DriverManager.getConnection("jdbc:shardex:sandbox:analyze-petclinic?shards=" + SHARDS)) {
      RecordedLog.createTables(c, new ClassPathResource("schema.sql").getContentAsString(StandardCharsets.UTF_8));
      return RecordedLog.throughTheDriver(c, SHARDS, general);
    }
  }
}
