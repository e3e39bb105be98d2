package dev.shardex.examples.support;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Set-up only (the examples' data code never imports Shardex): extra directories on a sandbox's
 * directory server, so one example can run the same workload through differently wired clusters,
 * e.g. with its shards behind {@link DelayProxy}s or with only one of the shards.
 */
public final class SandboxDirectories {
  private SandboxDirectories() {}

  /**
   * Creates (once) directory database {@code name} whose catalog lists the sandbox's first
   * {@code shards} shards, each behind a proxy delaying {@code delayMs} each way (none for 0), and
   * returns the jdbc:shardex: URL for it. The proxies live as long as the JVM.
   */
  public static String directory(SandboxCluster sandbox, String name, int shards, long delayMs,
      List<KeySpace> keySpaces) throws SQLException, IOException {
    try (Connection c = sandbox.connectDirectory(); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE IF NOT EXISTS `" + name + "`");
    }
    String dirUrl = sandbox.directoryUrl().replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(dirUrl);
    hc.setUsername(sandbox.user());
    hc.setPassword(sandbox.password());
    hc.setMaximumPoolSize(1);
    hc.setPoolName("example-setup-" + name);
    try (HikariDataSource ds = new HikariDataSource(hc)) {
      DirectoryStore store = new DirectoryStore(ds);
      store.init();
      if (store.shards().isEmpty()) {
        for (int i = 0; i < shards; i++) {
          store.addShard(i, delayMs == 0 ? sandbox.shardUrl(i) : proxied(sandbox.shardUrl(i), delayMs), 1.0);
        }
      }
      List<KeySpace> all = new ArrayList<>(keySpaces);
      all.add(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
      for (KeySpace ks : all) {
        if (store.keySpace(ks.name()) == null) {
          store.addKeySpace(ks);
        }
      }
    }
    return "jdbc:shardex:" + dirUrl.substring("jdbc:".length()) + (dirUrl.contains("?") ? "&" : "?") + "user="
        + sandbox.user() + "&password=" + sandbox.password() + "&shardex.instance=" + name;
  }

  private static String proxied(String shardUrl, long delayMs) throws IOException {
    URI uri = URI.create(shardUrl.substring("jdbc:".length()));
    DelayProxy proxy = new DelayProxy(uri.getHost(), uri.getPort(), delayMs);
    return "jdbc:mysql://127.0.0.1:" + proxy.port() + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
  }
}
