package dev.shardex.directory.lookup;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shardex.directory.change.Change;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.List;

/**
 * One driver instance's view of the lookup indexes: each table's lookups (loaded on first use,
 * absent ones too, dropped by the table's TABLE change like its declaration) and the entries of
 * unique lookups, in a bounded cache.
 *
 * <p>Why only unique entries are cached, and why that cannot give a wrong answer: a unique value
 * has one entry, and it only stops being right when it is deleted or re-pointed, which logs a
 * LOOKUP change that drops it here at the next poll. Until then a stale entry routes to a shard
 * that holds no row with the value (the statement is sent unchanged, so it re-checks the value),
 * and the caller re-reads the entry uncached when a route from this cache found no row
 * ({@link #forget}). A non-unique value can gain keys without any change being logged (logging
 * every insert would cost a directory transaction per row), so its entries are always read.
 */
public final class Lookups {
  private final LookupStore store;
  private final Cache<String, List<Lookup>> tables = Caffeine.newBuilder().maximumSize(100_000).build();
  private final Cache<String, String> entries;

  /** Bumps the directory's catalog version: templates bound to the catalog bind again. */
  private final Runnable catalogChanged;

  public Lookups(LookupStore store, long maxEntries, Runnable catalogChanged) {
    this.store = store;
    this.entries = Caffeine.newBuilder().maximumSize(maxEntries).build();
    this.catalogChanged = catalogChanged;
  }

  /** Declares a lookup on {@code table.column}; this client sees it at once, others at their next poll. */
  public void declare(String table, String column, boolean unique) throws SQLException {
    store.declare(table, column, unique);
    forgetTable(TableDef.normalise(table));
    catalogChanged.run();
  }

  /** RENAME TABLE carries the table's lookups over. */
  public void rename(String from, String to) throws SQLException {
    store.rename(from, to);
    forgetTable(TableDef.normalise(from));
    forgetTable(TableDef.normalise(to));
    catalogChanged.run();
  }

  public LookupStore store() {
    return store;
  }

  /** The table's lookups (empty for none), cached. */
  public List<Lookup> of(String table) throws SQLException {
    String t = TableDef.normalise(table);
    List<Lookup> cached = tables.getIfPresent(t);
    if (cached == null) {
      cached = List.copyOf(store.of(t));
      tables.put(t, cached);
    }
    return cached;
  }

  /** The key a unique value's entry names, from the cache when it holds it; null when the value has no entry. */
  public String cachedKey(Lookup l, String v) throws SQLException {
    String id = id(l, v);
    String k = entries.getIfPresent(id);
    if (k == null) {
      List<String> found = store.keys(l, v);
      k = found.isEmpty() ? null : found.get(0);
      if (k != null) {
        entries.put(id, k);
      }
    }
    return k;
  }

  /** Whether the cache holds the value's entry now. */
  public boolean cached(Lookup l, String v) {
    return entries.getIfPresent(id(l, v)) != null;
  }

  /** The keys the entries of {@code vs} name, read from the directory. */
  public List<String> keys(Lookup l, List<String> vs) throws SQLException {
    return vs.size() == 1 ? store.keys(l, vs.get(0)) : store.keys(l, vs);
  }

  /** Drops a cached entry (a route it gave found no row, or this driver changed it). */
  public void forget(Lookup l, String v) {
    entries.invalidate(id(l, v));
  }

  public void forgetTable(String table) {
    tables.invalidate(table);
  }

  /** A LOOKUP change: {@code ref} is the index id, {@code key} the value. */
  public void apply(Change change) {
    entries.invalidate(change.ref() + ":" + LookupValue.folded(change.key()));
  }

  private static String id(Lookup l, String v) {
    return l.id() + ":" + LookupValue.folded(v);
  }
}
