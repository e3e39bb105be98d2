package dev.shardex.directory.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One driver instance's cached catalog: the shards and their replicas (all of them, reloaded on any SHARD change), and
 * tables and key spaces loaded on first use (never scanned at start-up, so a catalog of 10,000 tables
 * costs nothing until they are used) and cached, absent ones too. A change-log entry drops exactly
 * what it names, and every drop bumps {@link #version}: what was derived from the catalog at one
 * version may be reused while the version stays the same.
 */
public final class CatalogCache {
  private final DirectoryStore store;
  private final Cache<String, Optional<TableDef>> tables = Caffeine.newBuilder().maximumSize(100_000).build();
  private final Cache<String, Optional<KeySpace>> keySpaces = Caffeine.newBuilder().maximumSize(10_000).build();
  private volatile NavigableMap<Integer, Shard> shards;
  /** Each shard's replicas (a shard without any is absent); reloaded with the shards. */
  private volatile Map<Integer, List<Replica>> replicas;
  /** Bumped after every change of the catalog this client caches (tables, key spaces, shards, sequences). */
  private final AtomicLong version = new AtomicLong();

  public CatalogCache(DirectoryStore store) throws SQLException {
    this.store = store;
    this.shards = loadShards();
    this.replicas = loadReplicas();
  }

  /** The catalog's version: it changes (after the cache is dropped) whenever something cached changes. */
  public long version() {
    return version.get();
  }

  /** Marks that something derived from the catalog changed (a table, a sequence column, a lookup index). */
  public void bump() {
    version.incrementAndGet();
  }

  public NavigableMap<Integer, Shard> shards() {
    return shards;
  }

  /** The shard's declared replicas, ONLINE or not, by replica id; empty when it has none. */
  public List<Replica> replicas(int shardId) {
    return replicas.getOrDefault(shardId, List.of());
  }

  /** Whether any shard has a replica: with none, nothing about reads changes. */
  public boolean hasReplicas() {
    return !replicas.isEmpty();
  }

  public Shard shard(int id) throws SQLException {
    Shard s = shards.get(id);
    if (s == null) {
      throw ShardexError.UNKNOWN_SHARD.exception(id);
    }
    return s;
  }

  /** The shard that holds SINGLE tables declared without a shard, and unknown tables: the lowest id. */
  public int homeShard() throws SQLException {
    if (shards.isEmpty()) {
      throw ShardexError.NO_SHARD.exception();
    }
    return shards.firstKey();
  }

  /** Any shard that accepts reads, for statements that name no table. */
  public int anyReadableShard() throws SQLException {
    return shards.values().stream().filter(s -> s.status().acceptsReads()).map(Shard::id).findFirst()
        .orElseThrow(ShardexError.NO_SHARD::exception);
  }

  public TableDef table(String name) throws SQLException {
    String key = TableDef.normalise(name);
    Optional<TableDef> cached = tables.getIfPresent(key);
    if (cached == null) {
      cached = Optional.ofNullable(store.table(key));
      tables.put(key, cached);
    }
    return cached.orElse(null);
  }

  public KeySpace keySpace(String name) throws SQLException {
    Optional<KeySpace> cached = keySpaces.getIfPresent(name);
    if (cached == null) {
      cached = Optional.ofNullable(store.keySpace(name));
      keySpaces.put(name, cached);
    }
    return cached.orElseThrow(() -> ShardexError.DIRECTORY_STATE.exception(
        "key space '" + name + "' is not in the directory; add it with 'shardex keyspaces add " + name + "'"));
  }

  /** Drops a table's cached definition (its name as the change log or a declaration gives it). */
  public void forgetTable(String name) {
    tables.invalidate(name);
  }

  public void forgetKeySpace(String name) {
    keySpaces.invalidate(name);
    bump();
  }

  /** Reloads the shards and their replicas after a SHARD change. */
  public void reloadShards() {
    try {
      shards = loadShards();
      replicas = loadReplicas();
      bump();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot reload the shard catalog: " + e.getMessage(), e);
    }
  }

  private Map<Integer, List<Replica>> loadReplicas() throws SQLException {
    Map<Integer, List<Replica>> map = new HashMap<>();
    for (Replica r : store.replicas()) {
      map.computeIfAbsent(r.shardId(), k -> new ArrayList<>()).add(r);
    }
    map.replaceAll((k, v) -> List.copyOf(v));
    return Map.copyOf(map);
  }

  private NavigableMap<Integer, Shard> loadShards() throws SQLException {
    TreeMap<Integer, Shard> map = new TreeMap<>();
    for (Shard s : store.shards()) {
      map.put(s.id(), s);
    }
    return map;
  }
}
