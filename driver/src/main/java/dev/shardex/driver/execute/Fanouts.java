package dev.shardex.driver.execute;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded, named thread pool that runs one statement's shards in parallel. Never a thread per
 * query and never unbounded: a fixed number of daemon threads, a short queue, and when both are
 * full the calling thread runs the shard itself (so a burst slows down instead of failing).
 */
public final class Fanouts {
  private Fanouts() {}

  public static ThreadPoolExecutor create(String instance, int threads) {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(threads * 4), r -> {
          Thread t = new Thread(r, "shardex-fanout-" + instance + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
