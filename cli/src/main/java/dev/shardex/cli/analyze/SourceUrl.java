package dev.shardex.cli.analyze;

import dev.shardex.directory.Redact;
import java.util.Map;
import java.util.Properties;

/**
 * A live source server's URL (its schema, its digest table) and its credentials: the URL's own
 * ({@code user:password@}, {@code user=}/{@code password=}), else {@code SHARDEX_SOURCE_USER} /
 * {@code SHARDEX_SOURCE_PASSWORD}. A {@code jdbc:shardex:} prefix is not a source: it is refused.
 */
record SourceUrl(String url, Properties credentials) {
  static SourceUrl of(String given, Map<String, String> env) {
    String url = given.startsWith("jdbc:") ? given : "jdbc:" + given;
    if (url.startsWith("jdbc:shardex:")) {
      throw new IllegalArgumentException("a source URL is the application's own server (jdbc:mysql://HOST:PORT/DB), "
          + "not a Shardex URL");
    }
    Redact.Credentials split = Redact.credentials(url);
    Properties p = new Properties();
    String user = split.user() != null ? split.user() : env.get("SHARDEX_SOURCE_USER");
    String password = split.password() != null ? split.password() : env.get("SHARDEX_SOURCE_PASSWORD");
    if (user != null) {
      p.setProperty("user", user);
    }
    if (password != null) {
      p.setProperty("password", password);
    }
    return new SourceUrl(split.url(), p);
  }
}
