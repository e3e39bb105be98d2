package dev.shardex.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.sandbox.SandboxCluster;
import java.io.File;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * No secret anywhere: a child JVM ({@link SecretsProbe}) logs everything at TRACE (HikariCP's
 * configuration dump included) while it connects with a real password carrying ';', '&', '@' and
 * '%' as URL options, as user:password@, percent-encoded and in Properties, works, fails, prints
 * every public object and exception chain, EXPLAIN ROUTE and the CLI. No piece of the password,
 * as written or encoded, appears in anything it wrote.
 */
class SecretsTest {
  static final String USER = "sx_probe";
  static final String PASSWORD = "Qx7Kp;Zw9Lm&Vb3Nc@Hj5Rt%Fg8Sd";
  static final String[] PIECES = {"Qx7Kp", "Zw9Lm", "Vb3Nc", "Hj5Rt", "Fg8Sd"};

  @Test
  void noPieceOfThePasswordIsEverPrinted() throws Exception {
    SandboxCluster sandbox = TestCluster.sandbox();
    TestCluster.connect().close();
    List<Connection> servers = new ArrayList<>();
    servers.add(sandbox.connectDirectory());
    for (int i = 0; i < sandbox.shardCount(); i++) {
      servers.add(sandbox.connectShard(i));
    }
    for (Connection c : servers) {
      try (c; Statement s = c.createStatement()) {
        for (String host : new String[] {"%", "localhost", "127.0.0.1"}) {
          s.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'" + host + "' IDENTIFIED BY '" + PASSWORD + "'");
          s.execute("GRANT ALL ON *.* TO '" + USER + "'@'" + host + "'");
        }
      }
    }
    URI dir = URI.create(sandbox.directoryUrl().substring(5));
    Path log = Files.createTempFile("shardex-secrets", ".log");
    try {
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace", "-Dorg.slf4j.simpleLogger.showDateTime=false",
          "-cp", System.getProperty("java.class.path"), SecretsProbe.class.getName(),
          dir.getHost() + ":" + dir.getPort(), dir.getPath().substring(1), USER, PASSWORD)
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the probe finishes");
      String output = Files.readString(log);
      assertEquals(0, p.exitValue(), tail(output));
      assertTrue(output.contains("probe done"), tail(output));
      assertTrue(output.contains("HikariConfig") || output.contains("jdbcUrl"), "HikariCP's DEBUG configuration dump was captured");
      assertTrue(output.contains("explain: "), "EXPLAIN ROUTE ran");
      List<String> leaks = new ArrayList<>();
      for (String secret : List.of(PASSWORD, URLEncoder.encode(PASSWORD, StandardCharsets.UTF_8))) {
        if (output.contains(secret)) {
          leaks.add(secret);
        }
      }
      for (String piece : PIECES) {
        output.lines().filter(l -> l.contains(piece)).limit(3).forEach(l -> leaks.add(piece + " in: " + l));
      }
      assertTrue(leaks.isEmpty(), "secret printed (" + output.length() + " chars captured in " + log + "): " + leaks);
      assertTrue(output.length() > 20_000, "TRACE output captured: " + output.length() + " chars");
      if (!Boolean.getBoolean("secrets.keepLog")) {
        new File(log.toString()).delete();
      }
    } catch (AssertionError e) {
      throw e;
    }
  }

  private static String tail(String s) {
    return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
  }
}
