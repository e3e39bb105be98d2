package dev.shardex.cli;

import dev.shardex.directory.Redact;
import dev.shardex.driver.cluster.ShardexConfig;
import java.util.Map;
import picocli.CommandLine.ParameterException;

/**
 * Which directory the CLI talks to and as whom: {@code --url} or {@code SHARDEX_URL}, in any of
 * three spellings: the directory's own {@code jdbc:mysql://...}, the driver's
 * {@code jdbc:shardex:mysql://...} (its {@code shardex.*} options are dropped), or
 * {@code jdbc:shardex:sandbox:NAME?shards=N} (an in-process sandbox, for tests and demos).
 * Credentials: the flags, else the URL's user/password, else SHARDEX_USER / SHARDEX_PASSWORD.
 */
record DirectoryTarget(String jdbcUrl, String user, String password, String sandboxName, int sandboxShards) {
  static final String SANDBOX = "jdbc:shardex:sandbox:";

  String display() {
    return sandboxName != null ? SANDBOX + sandboxName : Redact.url(jdbcUrl);
  }

  static DirectoryTarget resolve(String url, String user, String password, Map<String, String> env,
      picocli.CommandLine cmd) {
    String u = url != null ? url : env.get("SHARDEX_URL");
    if (u == null || u.isBlank()) {
      throw new ParameterException(cmd, "no directory given: pass --url jdbc:mysql://HOST:3306/DIRECTORY_DB or set SHARDEX_URL");
    }
    if (!u.startsWith(ShardexConfig.PREFIX) && !u.startsWith("jdbc:mysql://") && !u.startsWith("jdbc:mariadb://")) {
      throw new ParameterException(cmd, "unsupported directory URL " + Redact.url(u)
          + ": use jdbc:mysql://HOST:PORT/DB, jdbc:shardex:mysql://... or jdbc:shardex:sandbox:NAME");
    }
    // one grammar: the driver's (the directory's own URL is the driver's without its prefix)
    ShardexConfig.Target t;
    try {
      t = ShardexConfig.parse(u.startsWith(ShardexConfig.PREFIX) ? u : ShardexConfig.PREFIX + u.substring("jdbc:".length()),
          new java.util.Properties()).target();
    } catch (java.sql.SQLException e) {
      throw new ParameterException(cmd, e.getMessage());
    }
    String who = first(user, t.user(), env.get("SHARDEX_USER"));
    String secret = first(password, t.password(), env.get("SHARDEX_PASSWORD"));
    return t.sandboxName() != null ? new DirectoryTarget(null, who, secret, t.sandboxName(), t.sandboxShards())
        : new DirectoryTarget(t.directoryUrl(), who, secret, null, 0);
  }

  private static String first(String... values) {
    for (String v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }
}
