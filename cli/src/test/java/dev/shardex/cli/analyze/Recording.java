package dev.shardex.cli.analyze;

import dev.shardex.sandbox.SandboxCluster;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An application recorded on a plain MariaDB (a one-server sandbox, no Shardex) by its general log,
 * and that log analysed with the schema read live from the same database. Close it after the class.
 */
public record Recording(SandboxCluster server, Path general) implements AutoCloseable {
  /** What an application does over JDBC, on {@link #appUrl} with the server's user, while the log records it. */
  public interface App {
    void run(Recording on) throws Exception;
  }

  /** Starts the server {@code name} and runs {@code app} with the general log on, written under {@code dir}. */
  public static Recording of(String name, Path dir, App app) throws Exception {
    Recording r = new Recording(SandboxCluster.start(name, 1), dir.resolve("general.log"));
    try (Connection admin = r.server.connectShard(0); Statement s = admin.createStatement()) {
      s.execute("SET GLOBAL log_output = 'FILE'");
      s.execute("SET GLOBAL general_log_file = '" + r.general + "'");
      s.execute("SET GLOBAL general_log = 1");
      app.run(r);
      s.execute("SET GLOBAL general_log = 0");
      return r;
    } catch (Exception | AssertionError e) {
      r.close();
      throw e;
    }
  }

  /** The application's JDBC URL: plain Connector/J, server-side prepared statements (Prepare/Execute in the log). */
  public String appUrl() {
    return server.shardUrl(0) + "?useServerPrepStmts=true";
  }

  /** {@code shardex analyze --general LOG --schema-url DB MORE --json}: its report. */
  public Map<String, Object> analyze(String... more) {
    List<String> args = new ArrayList<>(List.of("--general", general.toString(), "--schema-url",
        server.shardUrl(0) + "?user=" + server.user() + "&password=" + server.password()));
    args.addAll(List.of(more));
    return RecordedLog.analyze(args.toArray(String[]::new));
  }

  @Override
  public void close() {
    server.close();
  }
}
