package dev.shardex.directory.placement;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * This driver's writes in flight, so the change poller acknowledges a change to a key only after
 * the writes routed before it have finished (the move protocol's ack).
 *
 * <p>Order matters: a writer counts itself in before it reads the key's placement, and the poller
 * invalidates the cache before it counts. Either the poller sees the writer (and waits for it), or
 * the writer's read comes after the invalidation (and sees the directory's FROZEN state).
 *
 * <p>A statement's writes are counted in {@link #STRIPES} stripes by the hash of (key space, key),
 * each with two generations, so beginning and ending one allocates nothing. A change is held up
 * only by writes that began before it was applied: when the poller first checks a change it flips
 * the key's stripe to a new generation (writers from then on count there), and the change waits
 * until the old generation has drained. A key written without pause still gets its change
 * acknowledged; two keys in one stripe only make each other's movers wait until the other key's
 * statement in flight ends.
 *
 * <p>A write a transaction keeps past its statement (and any guard a caller wants as an object)
 * becomes a {@link Guard} held per exact key, with the last change applied when it began: a
 * long transaction never holds up the move of a key it did not write.
 */
final class InFlightWrites {
  static final int STRIPES = 1024;

  /** Per stripe, the generation writers count in now (its parity picks the counter). */
  private final AtomicLongArray generation = new AtomicLongArray(STRIPES);
  /** Per stripe, two counters (stripe * 2 + generation parity): writes in flight. */
  private final AtomicLongArray counts = new AtomicLongArray(STRIPES * 2);
  /** Poller only: per change and stripe, the generation that must drain before it is acknowledged. */
  private final Map<Long, Long> waits = new HashMap<>();
  /** The guards held as objects, per exact key. */
  private final Map<Key, Map<Guard, Boolean>> held = new ConcurrentHashMap<>();

  record Key(String keySpace, Object key) {}

  /** A write in flight to one key as an object (a transaction holds it); closing it (once) ends it. */
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
        held.computeIfPresent(key, (k, set) -> {
          set.remove(this);
          return set.isEmpty() ? null : set;
        });
      }
    }

    synchronized boolean covers(String keySpace, Object k) {
      return !closed && key.keySpace().equals(keySpace) && key.key().equals(k);
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

  private static int textHash(String s) {
    return spellsLong(s) ? Long.hashCode(Long.parseLong(s)) : s.hashCode();
  }

  /** Whether the text spells a long exactly as Long.toString would (checked without throwing). */
  static boolean spellsLong(String s) {
    int n = s.length();
    boolean negative = n > 1 && s.charAt(0) == '-';
    int start = negative ? 1 : 0;
    int digits = n - start;
    if (digits == 0 || digits > 19 || (s.charAt(start) == '0' && (digits > 1 || negative))) {
      return false;
    }
    for (int i = start; i < n; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    String limit = negative ? "9223372036854775808" : "9223372036854775807";
    for (int i = 0; digits == 19 && i < 19; i++) {
      char c = s.charAt(start + i);
      if (c != limit.charAt(i)) {
        return c < limit.charAt(i);
      }
    }
    return true;
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

  /**
   * Marks one write to the key in flight as an object until it is closed; {@code appliedAtStart} is
   * the last change this client had applied when the write began (before it read the placement).
   */
  Guard hold(String keySpace, Object key, long appliedAtStart) {
    Key k = new Key(keySpace, key);
    Guard g = new Guard(k, appliedAtStart);
    held.compute(k, (x, set) -> {
      Map<Guard, Boolean> s = set == null ? new ConcurrentHashMap<>() : set;
      s.put(g, Boolean.TRUE);
      return s;
    });
    return g;
  }

  /** A counted write ({@link #begin}) from now on held as an object: held first, then uncounted, so it is never unseen. */
  Guard adopt(String keySpace, Object key, long appliedAtStart, int token) {
    Guard g = hold(keySpace, key, appliedAtStart);
    end(token);
    return g;
  }

  /**
   * Whether a write to the key that began before change {@code changeId} was applied is still in
   * flight (or, counted, a write to another key of its stripe). Called by the poller only, first
   * right after it applied the change, then on every poll until it answers false. The guards are
   * asked before and after the counters: a write handed from one to the other in between is seen.
   */
  synchronized boolean busyBefore(String keySpace, Object key, long changeId) {
    return heldBefore(keySpace, key, changeId) || countedBefore(keySpace, key, changeId)
        || heldBefore(keySpace, key, changeId);
  }

  /** As a guard object; a BIGINT key's guard holds a Long, the change log's key is its text. */
  private boolean heldBefore(String keySpace, Object key, long changeId) {
    if (heldBefore(new Key(keySpace, key), changeId)) {
      return true;
    }
    return key instanceof String s && spellsLong(s) && heldBefore(new Key(keySpace, Long.valueOf(s)), changeId);
  }

  private boolean heldBefore(Key key, long changeId) {
    Map<Guard, Boolean> set = held.get(key);
    if (set != null) {
      for (Guard g : set.keySet()) {
        if (g.appliedAtStart < changeId) {
          return true;
        }
      }
    }
    return false;
  }

  /** As counted in the key's stripe (see the class comment). */
  private boolean countedBefore(String keySpace, Object key, long changeId) {
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
