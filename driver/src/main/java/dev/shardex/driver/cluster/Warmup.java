package dev.shardex.driver.cluster;

import dev.shardex.driver.sql.Analyzer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The first parse in a JVM loads JSqlParser (a few hundred classes, its generated parser among the
 * largest) and runs it interpreted: 100-250 ms of a fresh JVM's first row. Opening the first
 * {@link Cluster} starts it here on a daemon thread instead, once per JVM, so it overlaps the
 * directory login (Connector/J's first connection, which keeps the caller's thread busy) and the
 * application's first statement finds the parser loaded. Before the parser it loads what the
 * caller's thread needs right after the login (SLF4J's binding, HikariCP, the Caffeine cache
 * classes the directory's caches use). Keeps nothing; a failure here is ignored (the real
 * statement reports its own).
 */
final class Warmup {
  private static final AtomicBoolean STARTED = new AtomicBoolean();
  private static final String[] STATEMENTS = {
    "SELECT a, b FROM t WHERE k = ?",
    "INSERT INTO t (k, a) VALUES (?, ?)",
    "UPDATE t SET a = ? WHERE k = ?"
  };

  private static final String[] HIKARI = {
    "com.zaxxer.hikari.HikariDataSource", "com.zaxxer.hikari.pool.HikariPool", "com.zaxxer.hikari.pool.HikariProxyConnection",
    "com.zaxxer.hikari.pool.HikariProxyPreparedStatement", "com.zaxxer.hikari.pool.HikariProxyResultSet"
  };

  private Warmup() {}

  static void start() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(new Runnable() { // not a lambda: its bootstrap would land on the caller's thread
      @Override
      public void run() {
        try {
          org.slf4j.LoggerFactory.getLogger(Cluster.class);
          new com.zaxxer.hikari.HikariConfig();
          for (String name : HIKARI) {
            Class.forName(name, true, Warmup.class.getClassLoader());
          }
          com.github.benmanes.caffeine.cache.Cache<Object, Object> loaded =
              com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(16).build();
          loaded.cleanUp(); // built only to load Caffeine's classes off the caller's thread
        } catch (Exception | LinkageError e) {
          // the caller's thread loads them itself
        }
        for (String sql : STATEMENTS) {
          try {
            Analyzer.analyze(sql);
          } catch (Exception | LinkageError e) {
            // the application's own statement reports what is wrong
          }
        }
      }
    }, "shardex-warmup");
    t.setDaemon(true);
    t.start();
  }
}
