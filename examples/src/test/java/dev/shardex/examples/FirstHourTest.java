package dev.shardex.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a newcomer runs in the first hour, as child processes from the built tree: the README's
 * demo (its main, in a JVM of its own, which must end by itself), a plain main on the sandbox URL
 * that throws, and bin/shardex (which needs only java once the build has run).
 */
class FirstHourTest {
  /** A hang guard: a child still running after this is a failure (the old demo never ended). */
  private static final long CHILD_TIMEOUT_S = 180;
  private static final Path ROOT = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().getParent();

  record Result(int exit, String output) {}

  /** An application that uses the sandbox URL and dies with an exception. */
  public static final class FailingApp {
    public static void main(String[] args) throws SQLException {
      try (Connection c = DriverManager.getConnection("jdbc:shardex:sandbox:firsthour?shards=2");
          Statement s = c.createStatement()) {
        s.execute("SELECT 1");
        throw new IllegalStateException("the application failed after its first query");
      }
    }
  }

  /** An application that writes through the sandbox URL and returns from main leaving its connection open. */
  public static final class LeftOpenApp {
    public static void main(String[] args) throws SQLException {
      Connection c = DriverManager.getConnection("jdbc:shardex:sandbox:firsthour-open?shards=2");
      Statement s = c.createStatement();
      s.execute("CREATE TABLE IF NOT EXISTS notes (user_id BIGINT PRIMARY KEY, body VARCHAR(20)) COMMENT='shardex:sharded key=user_id'");
      s.executeUpdate("REPLACE INTO notes VALUES (1, 'left open')");
      System.out.println("main returns");
    }
  }

  @Test
  void aMainThatLeavesItsConnectionOpenExitsQuietly() throws Exception {
    Result app = run(java(LeftOpenApp.class.getName()));
    assertEquals(0, app.exit(), app.output());
    assertTrue(app.output().contains("main returns"), app.output());
    String exit = app.output().substring(app.output().indexOf("main returns"));
    for (String noise : List.of("Communications link failure", "Exception", "WARN")) {
      assertTrue(!exit.contains(noise), "'" + noise + "' printed at JVM exit:\n" + exit);
    }
  }

  @Test
  void theBlogDemoPrintsItsTourAndItsJvmEnds() throws Exception {
    Result demo = run(java("dev.shardex.examples.blog.BlogDemo"));
    assertEquals(0, demo.exit(), demo.output());
    for (String expected : List.of("Shardex blog demo on jdbc:shardex:sandbox:blog?shards=4", "Where each author landed",
        "Rows per shard", "Timeline of author 1003", "SHX1201", "Done in")) {
      assertTrue(demo.output().contains(expected), "no '" + expected + "' in:\n" + demo.output());
    }
  }

  @Test
  void aMainOnTheSandboxUrlThatThrowsStillEnds() throws Exception {
    Result app = run(java(FailingApp.class.getName()));
    assertEquals(1, app.exit(), app.output());
    assertTrue(app.output().contains("the application failed after its first query"), app.output());
  }

  @Test
  void theCliNeedsOnlyJava() throws Exception {
    Result help = run(List.of(shardex().toString(), "--help"));
    assertEquals(0, help.exit(), help.output());
    assertTrue(help.output().contains("Usage: shardex"), help.output());
    assertTrue(help.output().contains("sandbox"), help.output());
    Result analyze = run(List.of(shardex().toString(), "analyze", "--help"));
    assertEquals(0, analyze.exit(), analyze.output());
    assertTrue(analyze.output().contains("Usage: shardex analyze") && analyze.output().contains("--general"), analyze.output());

    Result noDirectory = run(List.of(shardex().toString(), "shards", "list"));
    assertEquals(1, noDirectory.exit(), noDirectory.output());
    assertTrue(noDirectory.output().contains("no directory given: pass --url"), noDirectory.output());

    Result sandbox = run(List.of(shardex().toString(), "sandbox", "--shards", "1", "--name", "firsthour-cli", "--no-wait"));
    assertEquals(0, sandbox.exit(), sandbox.output());
    assertTrue(sandbox.output().contains("Sandbox 'firsthour-cli' is up: 1 shard(s) plus a directory."), sandbox.output());
  }

  @Test
  void theCliSaysWhatToRunWhenItIsNotBuilt() throws Exception {
    Path tree = Files.createTempDirectory("shardex-unbuilt-");
    try {
      Path launcher = Files.createDirectories(tree.resolve("bin")).resolve("shardex");
      Files.copy(shardex(), launcher);
      Result unbuilt = run(List.of(launcher.toString(), "--help"));
      assertEquals(1, unbuilt.exit(), unbuilt.output());
      assertTrue(unbuilt.output().contains("shardex: the CLI is not built: run 'mvn -B verify'"), unbuilt.output());
    } finally {
      Files.deleteIfExists(tree.resolve("bin/shardex"));
      Files.deleteIfExists(tree.resolve("bin"));
      Files.deleteIfExists(tree);
    }
  }

  private static Path shardex() {
    return ROOT.resolve("bin/shardex");
  }

  /** A child JVM on this module's test class path (surefire's real one, not its manifest jar). */
  private static List<String> java(String mainClass) {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath, mainClass);
  }

  private static Result run(List<String> command) throws IOException, InterruptedException {
    Path log = Files.createTempFile("firsthour-", ".log");
    try {
      ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(ROOT.toFile())
          .redirectErrorStream(true).redirectOutput(log.toFile());
      Map<String, String> env = builder.environment();
      env.keySet().removeIf(name -> name.startsWith("SHARDEX_"));
      Process child = builder.start();
      if (!child.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS)) {
        child.descendants().forEach(ProcessHandle::destroyForcibly);
        child.destroyForcibly();
        throw new AssertionError(String.join(" ", command.subList(Math.max(0, command.size() - 2), command.size()))
            + " did not end within " + CHILD_TIMEOUT_S + " s; output:\n" + Files.readString(log, StandardCharsets.UTF_8));
      }
      return new Result(child.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
