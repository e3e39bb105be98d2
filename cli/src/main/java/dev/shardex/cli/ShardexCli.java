package dev.shardex.cli;

import dev.shardex.directory.Redact;
import dev.shardex.vocabulary.ErrorKind;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

/**
 * The {@code shardex} admin CLI. Exit codes: 0 ok, 1 usage error, 2 refused or verification
 * failed (the message says why and what to do), 3 directory or shard unreachable, 4 anything else.
 */
@Command(name = "shardex", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, version = "shardex 0.1.0",
    description = "Administers a Shardex directory: shards, key spaces, tables, online user moves, rebalancing, verification.",
    subcommands = {InitCommand.class, ShardsCommand.class, KeyspacesCommand.class, TablesCommand.class, LookupsCommand.class,
        UsersCommand.class, MovesCommand.class, RebalanceCommand.class, VerifyCommand.class, RecoverCommand.class, SandboxCommand.class,
        dev.shardex.cli.analyze.AnalyzeCommand.class},
    footer = {"", "Directory: --url or SHARDEX_URL (jdbc:mysql://..., jdbc:shardex:mysql://... or jdbc:shardex:sandbox:NAME);",
        "credentials: --user/--password, the URL's user/password, or SHARDEX_USER/SHARDEX_PASSWORD.",
        "Exit codes: 0 ok, 1 usage, 2 refused or verification failed, 3 unreachable, 4 other failure."})
public final class ShardexCli implements Runnable {
  public static final int OK = 0;
  public static final int USAGE = 1;
  public static final int REFUSED = 2;
  public static final int UNREACHABLE = 3;
  public static final int FAILED = 4;

  @Option(names = "--url", scope = ScopeType.INHERIT, paramLabel = "URL", description = "Directory JDBC URL (default: $SHARDEX_URL).")
  String url;

  @Option(names = "--user", scope = ScopeType.INHERIT, description = "Directory user (default: the URL's, or $SHARDEX_USER).")
  String user;

  @Option(names = "--password", scope = ScopeType.INHERIT, arity = "0..1", interactive = true,
      description = "Directory password; give the flag alone to be prompted (default: the URL's, or $SHARDEX_PASSWORD).")
  String password;

  @Option(names = "--shard-user", scope = ScopeType.INHERIT, description = "Shard user (default: $SHARDEX_SHARD_USER, else the directory's).")
  String shardUser;

  @Option(names = "--shard-password", scope = ScopeType.INHERIT, arity = "0..1", interactive = true,
      description = "Shard password (default: $SHARDEX_SHARD_PASSWORD, else the directory's).")
  String shardPassword;

  @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print results as JSON (progress still goes to stderr).")
  boolean json;

  final Map<String, String> env;
  boolean interactive;

  public ShardexCli(Map<String, String> env) {
    this.env = env;
  }

  /** The environment the CLI was started with (commands outside this package read their variables here). */
  public Map<String, String> environment() {
    return env;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(new CommandLine(this), "missing command; see 'shardex --help'");
  }

  public static void main(String[] args) {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
    System.setProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "off");
    // the terminal's own encoding, as System.out has it
    PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, java.nio.charset.Charset.defaultCharset()), true);
    PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, java.nio.charset.Charset.defaultCharset()), true);
    System.exit(run(args, out, err, System.getenv(), System.console() != null));
  }

  /** Runs one command line with the given streams and environment; returns the exit code. Tests call this. */
  public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env, boolean interactive) {
    ShardexCli cli = new ShardexCli(env);
    cli.interactive = interactive;
    CommandLine cmd = new CommandLine(cli);
    cmd.setOut(out);
    cmd.setErr(err);
    cmd.setParameterExceptionHandler((e, argv) -> {
      e.getCommandLine().getErr().println("error: " + e.getMessage());
      e.getCommandLine().getErr().println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
      return USAGE;
    });
    cmd.setExecutionExceptionHandler((e, c, parsed) -> {
      String password = cli.password != null ? cli.password : env.get("SHARDEX_PASSWORD");
      c.getErr().println("error: " + Redact.text(e.getMessage(), password));
      c.getErr().flush();
      return exitCode(e);
    });
    return cmd.execute(args);
  }

  static int exitCode(Throwable e) {
    if (e instanceof SQLException sql) {
      return ErrorKind.of(sql).unreachable() ? UNREACHABLE : REFUSED;
    }
    return FAILED;
  }
}
