package dev.shardex.directory;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * This driver's writes in flight, so the change poller acknowledges a change to a key only after
 * the writes routed before it have finished (the move protocol's ack).
 *
 * <p>Order matters: a writer counts itself in before it reads the key's placement, and the poller
 * invalidates the cache before it counts. Either the poller sees the writer (and waits for it), or
 * the writer's read comes after the invalidation (and sees the directory's FROZEN state).
 *
 * <p>Writes are counted in {@link #STRIPES} stripes by the hash of (key space, key), each with two
 * generations, so beginning and ending a write allocates nothing. A change is held up only by
 * writes that began before it was applied: when the poller first checks a change it flips the
 * key's stripe to a new generation (writers from then on count there), and the change waits until
 * the old generation has drained. A key written without pause still gets its change acknowledged.
 * Two keys in one stripe only make each other's movers wait a little longer (until the other
 * key's writes of the old generation end), never less.
 */
final class InFlightWrites {
  static final int STRIPES = 1024;

  /** Per stripe, the generation writers count in now (its parity picks the counter). */
  private final AtomicLongArray generation = new AtomicLongArray(STRIPES);
  /** Per stripe, two counters (stripe * 2 + generation parity): writes in flight. */
  private final AtomicLongArray counts = new AtomicLongArray(STRIPES * 2);
  /** Poller only: per change and stripe, the generation that must drain before it is acknowledged. */
  private final java.util.Map<Long, Long> waits = new java.util.HashMap<>();

  /** A write in flight as an object (a transaction holds it, or a caller wants a list); closing it (once) ends it. */
  final class Guard implements AutoCloseable {
    final String keySpace;
    final Object key;
    private final int token;
    private boolean closed;

    Guard(String keySpace, Object key, int token) {
      this.keySpace = keySpace;
      this.key = key;
      this.token = token;
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        end(token);
      }
    }

    synchronized boolean covers(String space, Object k) {
      return !closed && keySpace.equals(space) && key.equals(k);
    }
  }

  /**
   * The stripe of a key. A BIGINT key is a Long where it is written and text in the change log, so
   * a string that spells a long exactly hashes as that long.
   */
  static int stripe(String keySpace, Object key) {
    int h = keySpace.hashCode() * 31 + keyHash(key);
    h ^= h >>> 16;
    h *= 0x45d9f3b;
    h ^= h >>> 16;
    return h & (STRIPES - 1);
  }

  private static int keyHash(Object key) {
    return key instanceof String s ? textHash(s) : key.hashCode(); // a Long's hash is its value's
  }

  /** The hash of the long the text spells exactly as Long.toString would, else the text's hash (never throws). */
  static int textHash(String s) {
    int n = s.length();
    boolean negative = n > 1 && s.charAt(0) == '-';
    int start = negative ? 1 : 0;
    if (n == start || n - start > 19 || (s.charAt(start) == '0' && (n - start > 1 || negative))) {
      return s.hashCode();
    }
    long v = 0; // accumulated negatively: Long.MIN_VALUE has no positive counterpart
    for (int i = start; i < n; i++) {
      int d = s.charAt(i) - '0';
      if (d < 0 || d > 9 || v < (Long.MIN_VALUE + d) / 10) {
        return s.hashCode();
      }
      v = v * 10 - d;
    }
    if (!negative && v == Long.MIN_VALUE) {
      return s.hashCode();
    }
    return Long.hashCode(negative ? v : -v);
  }

  /** Marks one write to the key in flight until {@link #end} is called with the returned token. */
  int begin(String keySpace, Object key) {
    int s = stripe(keySpace, key);
    int slot = s * 2 + (int) (generation.get(s) & 1);
    counts.incrementAndGet(slot);
    return slot;
  }

  void end(int token) {
    counts.decrementAndGet(token);
  }

  /** As {@link #begin}, as an object. */
  Guard guard(String keySpace, Object key) {
    return new Guard(keySpace, key, begin(keySpace, key));
  }

  Guard guard(String keySpace, Object key, int token) {
    return new Guard(keySpace, key, token);
  }

  /**
   * Whether a write to the key (or to another key of its stripe) that began before change {@code changeId}
   * was applied is still in flight. Called by the poller only (one thread), first right after it applied
   * the change, then on every poll until it answers false.
   */
  synchronized boolean busyBefore(String keySpace, Object key, long changeId) {
    int s = stripe(keySpace, key);
    Long id = changeId * STRIPES + s;
    Long awaited = waits.get(id);
    long g = generation.get(s);
    if (awaited == null) {
      awaited = g + 1; // the first flip after the change was applied: writers before it must end
      waits.put(id, awaited);
    }
    if (g < awaited) {
      if (counts.get(s * 2 + (int) ((g + 1) & 1)) != 0) {
        return true; // an older generation is still draining: no flip yet (its writers began before this change too)
      }
      generation.set(s, g + 1);
      g++;
    }
    if (g == awaited && counts.get(s * 2 + (int) ((awaited - 1) & 1)) != 0) {
      return true;
    }
    waits.remove(id);
    return false;
  }

  /** Whether one of these guards (a transaction's) already covers the key. */
  static boolean holds(java.util.Collection<AutoCloseable> held, String keySpace, Object key) {
    for (AutoCloseable c : held) { // only asked of a FROZEN key: not on the hot path
      if (c instanceof Guard g && g.covers(keySpace, key)) {
        return true;
      }
    }
    return false;
  }
}
