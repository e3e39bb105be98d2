package dev.shardex.cli;

import dev.shardex.directory.Redact;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
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
    // user:password@ comes out of the URL too: HikariCP logs the URL it is given at DEBUG
    Redact.Credentials info = Redact.credentials(u.startsWith(SANDBOX) ? "" : u.replaceFirst("\\?.*$", ""));
    if (info.user() != null) {
      u = info.url() + (u.indexOf('?') < 0 ? "" : u.substring(u.indexOf('?')));
    }
    int q = u.indexOf('?');
    Map<String, String> params = params(q < 0 ? "" : u.substring(q + 1));
    String base = q < 0 ? u : u.substring(0, q);
    String who = first(user, params.get("user"), info.user(), env.get("SHARDEX_USER"));
    String secret = first(password, params.get("password"), info.password(), env.get("SHARDEX_PASSWORD"));
    if (base.startsWith(SANDBOX)) {
      int shards = Integer.parseInt(params.getOrDefault("shards", "4"));
      return new DirectoryTarget(null, who, secret, base.substring(SANDBOX.length()), shards);
    }
    if (base.startsWith("jdbc:shardex:")) {
      base = "jdbc:" + base.substring("jdbc:shardex:".length());
      params.keySet().removeIf(k -> k.startsWith("shardex."));
    }
    if (!base.startsWith("jdbc:mysql://") && !base.startsWith("jdbc:mariadb://")) {
      throw new ParameterException(cmd, "unsupported directory URL " + Redact.url(u)
          + ": use jdbc:mysql://HOST:PORT/DB, jdbc:shardex:mysql://... or jdbc:shardex:sandbox:NAME");
    }
    params.remove("user");
    params.remove("password"); // passed as properties, so the URL we keep and show has none
    StringBuilder rebuilt = new StringBuilder(base);
    params.forEach((k, v) -> rebuilt.append(rebuilt.indexOf("?") < 0 ? '?' : '&').append(k).append('=').append(v));
    return new DirectoryTarget(rebuilt.toString(), who, secret, null, 0);
  }

  private static Map<String, String> params(String query) {
    Map<String, String> params = new LinkedHashMap<>();
    for (String pair : query.split("&")) {
      if (!pair.isEmpty()) {
        int eq = pair.indexOf('=');
        String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        params.put(k, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return params;
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
