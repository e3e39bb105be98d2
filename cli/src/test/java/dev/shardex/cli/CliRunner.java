package dev.shardex.cli;

import dev.shardex.directory.move.TestCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** Runs the real CLI in-process against the clitest sandbox, capturing stdout, stderr and the exit code. */
final class CliRunner {
  record Result(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
    }
  }

  private CliRunner() {}

  static Map<String, String> env() {
    return Map.of("SHARDEX_URL", TestCluster.sandbox().directoryUrl(), "SHARDEX_USER", TestCluster.sandbox().user(),
        "SHARDEX_PASSWORD", TestCluster.sandbox().password());
  }

  static Result run(String... args) {
    return runWith(env(), args);
  }

  static Result runWith(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = ShardexCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true), env, false);
    return new Result(code, out.toString(), err.toString());
  }
}
