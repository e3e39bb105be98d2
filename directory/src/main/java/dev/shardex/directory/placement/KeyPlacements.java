package dev.shardex.directory.placement;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.DirectoryStats;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.client.DirectoryUnreachable;
import dev.shardex.directory.client.Lease;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Where keys live, for one directory client: the per-key-space placement caches, reads and writes
 * routed through them ({@link Directory}'s key methods delegate here), new keys placed with an
 * insert-if-absent, writes marked in flight ({@link InFlightWrites}) and held while a move has the
 * key FROZEN, key-less reads marked for the move protocol, and the change log's key invalidations.
 */
public final class KeyPlacements {
  /** The in-flight key of a key-less read: it holds up the acks of move phases of its key space. */
  private static final Object SCATTER = new Object() {
    @Override
    public String toString() {
      return "(key-less read)";
    }
  };

  private final Directory directory;
  private final DirectoryStore store;
  private final DirectoryOptions options;
  private final Lease lease;
  private final HiddenRows hidden;
  private final String displayUrl;
  /** A what-if directory's placement of keys (shardex analyze); null for every driver. */
  private final KeyPlacer whatIf;
  private final Map<String, Cache<Object, Placement>> placements = new ConcurrentHashMap<>();
  private final InFlightWrites inFlight = new InFlightWrites();
  /** Bumped before every key invalidation: a lookup that raced with one must not re-cache its answer. */
  private final java.util.concurrent.atomic.AtomicLong keyEpoch = new java.util.concurrent.atomic.AtomicLong();

  public KeyPlacements(Directory directory, DirectoryStore store, DirectoryOptions options, Lease lease, HiddenRows hidden,
      String displayUrl, KeyPlacer whatIf) {
    this.directory = directory;
    this.store = store;
    this.options = options;
    this.lease = lease;
    this.hidden = hidden;
    this.displayUrl = displayUrl;
    this.whatIf = whatIf;
  }

  /** The shard a key lives on for reading, or null when the directory does not know the key. */
  public Placement routeRead(String keySpace, Object canonicalKey) throws SQLException {
    Cache<Object, Placement> cache = placementCache(keySpace);
    Placement p = cache.getIfPresent(canonicalKey);
    if (p == null) {
      if (whatIf != null) { // a miss only: the driver's hit path is unchanged
        p = new Placement(whatIf.shardOf(keySpace, canonicalKey), KeyState.ACTIVE, 0);
        cache.put(canonicalKey, p);
        return p;
      }
      long epoch = keyEpoch.get();
      p = directoryCall(() -> store.lookup(keySpace, canonicalKey.toString()));
      if (p != null) {
        cache.put(canonicalKey, p);
        if (keyEpoch.get() != epoch) {
          cache.invalidate(canonicalKey); // a change raced with the lookup: never keep a possibly stale answer
        }
      }
    }
    return p;
  }

  /** As {@link #routeRead(String, Object)}, and marks in {@code marks} what the read was routed by (allocates nothing). */
  public Placement routeRead(String keySpace, Object canonicalKey, KeyMarks marks) throws SQLException {
    Placement p = routeRead(keySpace, canonicalKey);
    if (p != null) {
      marks.addRead(placementCache(keySpace), canonicalKey, p);
    }
    return p;
  }

  /**
   * As above, with the key's in-flight mark added to {@code marks} (allocates nothing): the caller
   * ends it ({@link KeyMarks#releaseWrites}) or hands it to its transaction once the write has finished.
   */
  public Placement routeWrite(String keySpace, Object canonicalKey, Directory.WriteMode mode, KeyMarks marks,
      java.util.Collection<AutoCloseable> held) throws SQLException {
    lease.check();
    if (mode == Directory.WriteMode.PREDICT) {
      Placement p = routeRead(keySpace, canonicalKey);
      return p != null ? p : new Placement(chooseShard(), KeyState.ACTIVE, 0);
    }
    while (true) {
      long applied = directory.appliedChange();
      int token = inFlight.begin(keySpace, canonicalKey);
      Placement p;
      try {
        p = routeRead(keySpace, canonicalKey);
        if (p == null && mode == Directory.WriteMode.PLACE) {
          p = place(keySpace, canonicalKey);
        }
      } catch (SQLException | RuntimeException e) {
        inFlight.end(token);
        throw e;
      }
      if (p == null || !p.frozen() || InFlightWrites.holds(held, keySpace, canonicalKey)) {
        // a transaction that already wrote the key before it froze keeps writing the source:
        // its first write holds the ack the mover waits for, so waiting here would wait for itself
        marks.addWrite(inFlight, token, keySpace, canonicalKey, applied);
        return p;
      }
      inFlight.end(token);
      waitWhileFrozen(keySpace, canonicalKey);
    }
  }

  private Placement place(String keySpace, Object canonicalKey) throws SQLException {
    long epoch = keyEpoch.get();
    int target = chooseShard();
    Placement p = directoryCall(() -> store.placeIfAbsent(keySpace, canonicalKey.toString(), target));
    if (!p.frozen()) {
      placementCache(keySpace).put(canonicalKey, p);
      if (keyEpoch.get() != epoch) {
        placementCache(keySpace).invalidate(canonicalKey);
      }
    }
    return p;
  }

  public boolean keyBusy(Change change) {
    HiddenRows.Phase phase = HiddenRows.phase(change);
    if (phase != null) { // a move's announcement concerns key-less reads only
      return phase.awaited() && inFlight.busyBefore(change.keySpace(), SCATTER, change.id());
    }
    // a BIGINT key is its text in the change log, a Long in flight: InFlightWrites matches both
    return inFlight.busyBefore(change.keySpace(), change.key(), change.id());
  }

  /**
   * Starts a key-less read of the key space's SHARDED tables: until the returned mark is closed
   * (once every shard answered), this driver does not acknowledge a move's COPYING or FLIPPED
   * phase, and the mark says which rows each shard must hide from the read (a snapshot taken after
   * the mark, the same for every shard of the read).
   */
  public ReadMarks.ScatterRead beginScatter(String keySpace) {
    return new ReadMarks.ScatterRead(inFlight.hold(keySpace, SCATTER, directory.appliedChange()), hidden.snapshot(keySpace));
  }


  private Placement waitWhileFrozen(String keySpace, Object key) throws SQLException {
    long start = System.nanoTime();
    long limit = TimeUnit.MILLISECONDS.toNanos(options.frozenWaitMs());
    while (true) {
      long epoch = keyEpoch.get();
      Placement p = store.lookup(keySpace, key.toString());
      if (p != null && !p.frozen()) {
        placementCache(keySpace).put(key, p);
        if (keyEpoch.get() != epoch) {
          placementCache(keySpace).invalidate(key);
        }
        return p;
      }
      long waited = System.nanoTime() - start;
      if (waited > limit) {
        throw ShardexError.FROZEN_TIMEOUT.exception(key, keySpace, TimeUnit.NANOSECONDS.toMillis(waited), options.frozenWaitMs());
      }
      sleep(10);
    }
  }

  /** least_loaded: the ONLINE shard with the fewest keys per unit of weight; ties to the lowest id. */
  private int chooseShard() throws SQLException {
    List<Shard> current = store.shards();
    return current.stream()
        .filter(s -> s.status() == ShardStatus.ONLINE && s.weight() > 0)
        .min(Comparator.comparingDouble((Shard s) -> s.keyCount() / s.weight()).thenComparingInt(Shard::id))
        .map(Shard::id)
        .orElseThrow(ShardexError.NO_SHARD::exception);
  }

  private Cache<Object, Placement> placementCache(String keySpace) {
    Cache<Object, Placement> cache = placements.get(keySpace);
    return cache != null ? cache : placements.computeIfAbsent(keySpace, k -> newCache());
  }

  private Cache<Object, Placement> newCache() {
    Caffeine<Object, Object> b = Caffeine.newBuilder().maximumSize(options.cacheSize());
    return options.recordStats() ? b.recordStats().build() : b.build();
  }

  /** Hits, misses and size of the key caches, summed over key spaces (zeros unless recordStats). */
  public DirectoryStats.Keys stats() {
    long hits = 0;
    long misses = 0;
    long size = 0;
    for (Cache<Object, Placement> c : placements.values()) {
      var s = c.stats();
      hits += s.hitCount();
      misses += s.missCount();
      size += c.estimatedSize();
    }
    return new DirectoryStats.Keys(hits, misses, size);
  }

  /** A change-log entry about one key: its cached placement is dropped (under both its spellings). */
  public void invalidate(Change change) {
    keyEpoch.incrementAndGet();
    Cache<Object, Placement> cache = placements.get(change.keySpace());
    if (cache != null) {
      // Keys are cached in canonical form; a BIGINT key's text is its Long's text.
      cache.invalidate(change.key());
      try {
        cache.invalidate(Long.valueOf(change.key()));
      } catch (NumberFormatException notNumeric) {
        // a STRING key space: the text form was the cache key
      }
    }
  }

  private interface StoreCall<T> {
    T run() throws SQLException;
  }

  /** A key lookup or placement: a lost directory connection is SHX1406 naming the directory, not a raw driver error. */
  private <T> T directoryCall(StoreCall<T> call) throws SQLException {
    try {
      return call.run();
    } catch (SQLException e) {
      throw ErrorKind.of(e).unreachable() ? DirectoryUnreachable.named(e, displayUrl, null) : e;
    }
  }

  private static void sleep(long ms) throws SQLException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ShardexError.DIRECTORY_STATE.withCause(e, "interrupted while waiting for a moving key");
    }
  }
}
