package dev.shardex.directory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts this driver's writes in flight per key, so the change poller acknowledges a change to a
 * key only after the writes routed before it have finished (the move protocol's ack).
 *
 * <p>Order matters: a writer takes its guard before it reads the key's placement, and the poller
 * invalidates the cache before it counts. Either the poller sees the guard (and waits for it), or
 * the writer's read comes after the invalidation (and sees the directory's FROZEN state).
 */
final class InFlightWrites {
  record Key(String keySpace, Object key) {}

  private final Map<Key, AtomicInteger> counts = new ConcurrentHashMap<>();

  /** Marks one write to the key in flight until the returned guard is closed (once). */
  AutoCloseable begin(String keySpace, Object key) {
    Key k = new Key(keySpace, key);
    counts.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet();
    return new AutoCloseable() {
      private boolean closed;

      @Override
      public synchronized void close() {
        if (!closed) {
          closed = true;
          counts.computeIfPresent(k, (x, n) -> n.decrementAndGet() <= 0 ? null : n);
        }
      }
    };
  }

  boolean busy(String keySpace, Object key) {
    return counts.containsKey(new Key(keySpace, key));
  }
}
