package dev.shardex.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every command shares: the root's options, its output, and a session on the directory. */
abstract class CliCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  ShardexCli root() {
    return (ShardexCli) spec.root().userObject();
  }

  Out out() {
    CommandLine cl = spec.commandLine();
    return new Out(cl.getOut(), cl.getErr(), root().json, root().interactive);
  }

  CliSession session() throws java.sql.SQLException {
    return session(6);
  }

  CliSession session(int poolSize) throws java.sql.SQLException {
    ShardexCli r = root();
    DirectoryTarget target = DirectoryTarget.resolve(r.url, r.user, r.password, r.env, spec.commandLine());
    if (target.sandboxName() != null) {
      target = SandboxLauncher.start(target.sandboxName(), target.sandboxShards());
    }
    String shardUser = r.shardUser != null ? r.shardUser : r.env.get("SHARDEX_SHARD_USER");
    String shardPassword = r.shardPassword != null ? r.shardPassword : r.env.get("SHARDEX_SHARD_PASSWORD");
    return CliSession.open(target, shardUser, shardPassword, poolSize);
  }

  CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /** For commands that only group subcommands: called alone, they show their usage. */
  abstract static class Group implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      spec.commandLine().usage(spec.commandLine().getErr());
      return ShardexCli.USAGE;
    }
  }
}
