package dev.shardex.directory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * This driver's writes in flight, per key, so the change poller acknowledges a change to a key
 * only after the writes routed before it have finished (the move protocol's ack).
 *
 * <p>Order matters: a writer takes its guard before it reads the key's placement, and the poller
 * invalidates the cache before it counts. Either the poller sees the guard (and waits for it), or
 * the writer's read comes after the invalidation (and sees the directory's FROZEN state).
 *
 * <p>Each guard remembers the last change the poller had applied when it was taken: a change is
 * held up only by guards taken before it was applied (a write routed afterwards already saw it),
 * so a key that is written without pause still gets its change acknowledged.
 */
final class InFlightWrites {
  record Key(String keySpace, Object key) {}

  /** A write in flight to one key; closing it (once) ends it. */
  final class Guard implements AutoCloseable {
    final Key key;
    final long appliedAtStart;
    private boolean closed;

    Guard(Key key, long appliedAtStart) {
      this.key = key;
      this.appliedAtStart = appliedAtStart;
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        guards.computeIfPresent(key, (k, set) -> {
          set.remove(this);
          return set.isEmpty() ? null : set;
        });
      }
    }
  }

  private final Map<Key, Map<Guard, Boolean>> guards = new ConcurrentHashMap<>();
  private final LongSupplier applied;

  InFlightWrites(LongSupplier applied) {
    this.applied = applied;
  }

  /** Marks one write to the key in flight until the returned guard is closed. */
  Guard begin(String keySpace, Object key) {
    Key k = new Key(keySpace, key);
    Guard g = new Guard(k, applied.getAsLong());
    guards.compute(k, (x, set) -> {
      Map<Guard, Boolean> s = set == null ? new ConcurrentHashMap<>() : set;
      s.put(g, Boolean.TRUE);
      return s;
    });
    return g;
  }

  /** Whether a write to the key that began before change {@code changeId} was applied is still in flight. */
  boolean busyBefore(String keySpace, Object key, long changeId) {
    Map<Guard, Boolean> set = guards.get(new Key(keySpace, key));
    return set != null && set.keySet().stream().anyMatch(g -> g.appliedAtStart < changeId);
  }

  /** Whether one of these guards (a transaction's) already covers the key. */
  static boolean holds(java.util.Collection<AutoCloseable> held, String keySpace, Object key) {
    Key k = new Key(keySpace, key);
    for (AutoCloseable c : held) {
      if (c instanceof Guard g && g.key.equals(k) && !g.closed) {
        return true;
      }
    }
    return false;
  }
}
