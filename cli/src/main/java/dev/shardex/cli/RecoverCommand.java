package dev.shardex.cli;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.Recover;
import dev.shardex.driver.execute.Recovery;
import java.util.Properties;
import picocli.CommandLine.Command;

@Command(name = "recover", description = {"Finish cross-shard transactions that a crash or a dead shard left prepared.",
    "A prepared branch commits if its commit record is on its origin shard, and rolls back once its transaction",
    "can no longer commit. Drivers also do this at start and every 30 s; run it after bringing a shard back."})
final class RecoverCommand extends CliCommand {
  @Override
  public Integer call() throws Exception {
    ShardexCli r = root();
    DirectoryTarget target = DirectoryTarget.resolve(r.url, r.user, r.password, r.env, spec.commandLine());
    Properties p = new Properties();
    String url;
    if (target.sandboxName() != null) {
      url = DirectoryTarget.SANDBOX + target.sandboxName() + "?shards=" + target.sandboxShards();
    } else {
      url = "jdbc:shardex:" + target.jdbcUrl().substring("jdbc:".length());
    }
    if (target.user() != null) {
      p.setProperty("user", target.user());
      p.setProperty("password", target.password() == null ? "" : target.password());
    }
    String shardUser = r.shardUser != null ? r.shardUser : r.env.get("SHARDEX_SHARD_USER");
    String shardPassword = r.shardPassword != null ? r.shardPassword : r.env.get("SHARDEX_SHARD_PASSWORD");
    if (shardUser != null || shardPassword != null) {
      try (CliSession s = session()) {
        for (Shard shard : s.store().shards()) {
          if (shardUser != null) {
            p.setProperty("shard." + shard.id() + ".user", shardUser);
          }
          if (shardPassword != null) {
            p.setProperty("shard." + shard.id() + ".password", shardPassword);
          }
        }
      }
    }
    Recovery.Report report = Recover.run(url, p);
    out().result(Json.obj("committed", report.committed(), "rolledBack", report.rolledBack(), "pending", report.pending(),
        "cleaned", report.cleaned()), () -> out().line("Recovery: " + report));
    return ShardexCli.OK;
  }
}
