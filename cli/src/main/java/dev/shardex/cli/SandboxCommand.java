package dev.shardex.cli;

import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "sandbox", description = {"Start a local cluster, print its URL and run until Ctrl-C.",
    "Embedded MariaDB: N shards plus a directory, initialised (schema, shards, key space 'default')."})
final class SandboxCommand extends CliCommand {
  @Option(names = "--shards", defaultValue = "4", description = "Number of shards (default: ${DEFAULT-VALUE}).")
  int shards;

  @Option(names = "--name", defaultValue = "sandbox", description = "Cluster name, also the shards' database (default: ${DEFAULT-VALUE}).")
  String name;

  /** Tests: return once started instead of waiting for Ctrl-C. */
  @Option(names = "--no-wait", hidden = true)
  boolean noWait;

  @Override
  public Integer call() throws Exception {
    if (shards < 1) {
      throw usage("--shards must be at least 1");
    }
    DirectoryTarget t = SandboxLauncher.start(name, shards);
    // The sandbox's password is a fixed, public default; the CLI still never prints passwords.
    String url = "jdbc:shardex:" + t.jdbcUrl().substring("jdbc:".length()) + "?user=" + t.user();
    out().result(Json.obj("name", name, "shards", shards, "url", url, "directoryUrl", t.jdbcUrl(), "user", t.user()), () -> {
      out().line("Sandbox '" + name + "' is up: " + shards + " shard(s) plus a directory.");
      out().line("JDBC URL:  " + url + "&password=...");
      out().line("CLI:       export SHARDEX_URL='" + t.jdbcUrl() + "' SHARDEX_USER=" + t.user()
          + " SHARDEX_PASSWORD=...   (the sandbox password: README, The URL)");
      out().line("Press Ctrl-C to stop (the data is deleted).");
    });
    if (!noWait) {
      new CountDownLatch(1).await(); // the sandbox's shutdown hook stops the servers on Ctrl-C
    }
    return ShardexCli.OK;
  }
}
