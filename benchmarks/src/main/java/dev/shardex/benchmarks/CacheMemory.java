package dev.shardex.benchmarks;

import com.github.benmanes.caffeine.cache.Cache;
import dev.shardex.directory.Directory;
import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.util.Map;

/**
 * Heap per cached directory entry: the retained heap of a real {@link Directory}'s key cache
 * (Caffeine, maximumSize = shardex.keyCacheSize = 1,000,000) after {@code entries} BIGINT keys are
 * cached, divided by the entries. Counts everything an entry costs: its Long key, its Placement,
 * Caffeine's node, the hash table's share and the frequency sketch.
 *
 * <p>Filling a million entries through {@code routeRead} would take a million directory round
 * trips (minutes); instead the entries are put into the Directory's own cache object (its KeyPlacements', reached by
 * reflection) exactly as {@code routeRead} puts them after a lookup, and one {@code routeRead} of
 * a key that exists only in the cache proves the entries are what routing reads.
 */
final class CacheMemory {
  record Result(long entries, long heapDeltaBytes, double bytesPerEntry) {}

  private CacheMemory() {}

  @SuppressWarnings("unchecked")
  static Result measure(DirectoryStore store, int entries, long firstKey) throws Exception {
    try (Directory dir = Directory.open(store, DirectoryOptions.defaults().withAutoPoll(false), "bench-memory")) {
      dir.routeRead(KeySpace.DEFAULT, 0L); // creates the key space's cache through the public path
      Field keys = Directory.class.getDeclaredField("keys"); // its KeyPlacements
      keys.setAccessible(true);
      Object placements = keys.get(dir);
      Field f = placements.getClass().getDeclaredField("placements");
      f.setAccessible(true);
      Cache<Object, Placement> cache = ((Map<String, Cache<Object, Placement>>) f.get(placements)).get(KeySpace.DEFAULT);
      cache.invalidateAll();
      cache.cleanUp();
      long before = usedHeapAfterGc();
      for (long i = 0; i < entries; i++) {
        long key = firstKey + i;
        cache.put(key, new Placement((int) (key % 4), KeyState.ACTIVE, 1));
      }
      cache.cleanUp();
      long after = usedHeapAfterGc();
      Placement p = dir.routeRead(KeySpace.DEFAULT, firstKey + entries / 2);
      if (p == null || cache.estimatedSize() < entries * 0.99) {
        throw new IllegalStateException("the key cache does not hold the entries: " + cache.estimatedSize());
      }
      long delta = after - before;
      Result r = new Result(entries, delta, (double) delta / entries);
      cache.invalidateAll();
      return r;
    }
  }

  /**
   * Heap per cached entry of a unique lookup ({@code Lookups}' cache: "index:value" -> shard key,
   * both strings), measured the same way: {@code entries} ids of one lookup, each naming an owner key,
   * put into the Directory's own cache object, then one {@code cachedKey} of a value that only the
   * cache holds proves they are what routing reads.
   */
  @SuppressWarnings("unchecked")
  static Result measureLookups(DirectoryStore store, int entries) throws Exception {
    try (Directory dir = Directory.open(store, DirectoryOptions.defaults().withAutoPoll(false), "bench-lookup-memory")) {
      Field f = dir.lookups().getClass().getDeclaredField("entries");
      f.setAccessible(true);
      Cache<String, String> cache = (Cache<String, String>) f.get(dir.lookups());
      cache.invalidateAll();
      cache.cleanUp();
      int index = 999_999; // no such lookup in the directory: a value the cache misses reads as "no entry"
      long before = usedHeapAfterGc();
      for (int i = 0; i < entries; i++) {
        cache.put(index + ":" + (1_000_000 + i), Long.toString(100_000 + i / 10)); // ten pets per owner
      }
      cache.cleanUp();
      long after = usedHeapAfterGc();
      String k = dir.lookups().cachedKey(new dev.shardex.directory.lookup.Lookup(index, "pets", "id", true),
          Integer.toString(1_000_000 + entries / 2));
      if (k == null || cache.estimatedSize() < entries * 0.99) {
        throw new IllegalStateException("the lookup cache does not hold the entries: " + cache.estimatedSize());
      }
      long delta = after - before;
      cache.invalidateAll();
      return new Result(entries, delta, (double) delta / entries);
    }
  }

  static long usedHeapAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
