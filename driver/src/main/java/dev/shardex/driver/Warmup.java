package dev.shardex.driver;

import dev.shardex.driver.sql.Analyzer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The first parse in a JVM loads JSqlParser (a few hundred classes, its generated parser among the
 * largest) and runs it interpreted: 100-250 ms of a fresh JVM's first row. Opening the first
 * {@link Cluster} starts it here on a daemon thread instead, once per JVM, so it overlaps the
 * directory login and start-up queries (which wait on the network and load other classes) and the
 * application's first statement finds the parser loaded. Parses typical statements and keeps
 * nothing; a failure here is ignored (the real statement reports its own).
 */
final class Warmup {
  private static final AtomicBoolean STARTED = new AtomicBoolean();
  private static final String[] STATEMENTS = {
    "SELECT a, b FROM t WHERE k = ?",
    "INSERT INTO t (k, a) VALUES (?, ?)",
    "UPDATE t SET a = ? WHERE k = ?"
  };

  private Warmup() {}

  static void start() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(new Runnable() { // not a lambda: its bootstrap would land on the caller's thread
      @Override
      public void run() {
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
