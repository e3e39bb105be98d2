package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupStore;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Adds the entries of rows written before their lookup was declared ({@code shardex lookups
 * build}), and of rows that lost theirs (writes made outside Shardex): each shard's rows of the
 * table, those of keys the shard owns, get their entry. An entry already there for the same key
 * is kept; one naming a key whose row with the value is gone (an orphan) is re-pointed; one naming
 * another key that has the value too is a uniqueness violation in the data, reported
 * ({@code SHX1608}) and left as it is, never overwritten. Drivers maintain the lookup from the
 * moment they see its declaration, so rows written while this runs are covered either way. Rows
 * are streamed and checked a page at a time ({@link LookupPages}).
 */
public final class LookupBackfill {
  /** What a build did: rows read, entries added or re-pointed, and the values held by two live rows. */
  public record Report(long rows, long added, List<String> conflicts) {}

  /** What adding one row's entry did: added (or re-pointed: {@code detail} says which), or the SHX1608 {@code conflict}. */
  record Added(boolean added, String conflict, String detail) {}

  private final DirectoryStore store;
  private final ShardConnector shards;
  private final LookupStore lookups;

  public LookupBackfill(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
    this.lookups = new LookupStore(store);
  }

  public Report build(Lookup l) throws SQLException {
    TableDef def = store.table(l.table());
    long[] counts = new long[2];
    List<String> conflicts = new ArrayList<>();
    LookupPages pages = new LookupPages(store, shards);
    for (Shard s : store.shards()) {
      if (s.status().acceptsReads()) {
        pages.forEachRowPage(l, def, s.id(), page -> {
          for (LookupPages.Pair row : page) {
            counts[0]++;
            Added a = add(l, def, row.raw(), row.k());
            counts[1] += a.added() ? 1 : 0;
            if (a.conflict() != null) {
              conflicts.add(a.conflict());
            }
          }
        });
      }
    }
    return new Report(counts[0], counts[1], conflicts);
  }

  /**
   * Adds the entry of the row {@code raw} under key {@code k}, re-pointing an orphan; never
   * overwrites a live row's. Holds the value's lock meanwhile, as every writer of entries does
   * ({@link dev.shardex.directory.lookup.LookupClaim}): a driver's claim of the value in flight (its entry
   * committed, its row not written yet) is then waited for, not taken for an orphan.
   */
  Added add(Lookup l, TableDef def, Object raw, String k) throws SQLException {
    String v = dev.shardex.directory.lookup.LookupValue.of(raw);
    try (dev.shardex.directory.lookup.LookupClaim lock = dev.shardex.directory.lookup.LookupClaim.autocommit(store)) {
      lock.lock(l, v);
      lock.takeLocks();
      return addLocked(l, def, raw, v, k);
    }
  }

  private Added addLocked(Lookup l, TableDef def, Object raw, String v, String k) throws SQLException {
    String holder = lookups.claim(l, v, k);
    if (holder == null) {
      return new Added(true, null, "entry added");
    }
    if (!LookupVerifier.exists(store, shards, def, l.column(), raw, holder)) {
      return lookups.repoint(l, v, holder, k) ? new Added(true, null, "re-pointed from key " + holder)
          : new Added(false, null, "kept: the entry changed meanwhile");
    }
    String conflict = conflict(l, def, v, holder, k);
    return new Added(false, conflict, conflict);
  }

  /** SHX1608: value {@code v} of a unique lookup is held by live rows of keys {@code holder} and {@code k}. */
  String conflict(Lookup l, TableDef def, String v, String holder, String k) throws SQLException {
    return ShardexError.LOOKUP_CONFLICT.message(def.name(), l.column(), v, holder, shardOf(def, holder), k, shardOf(def, k));
  }

  private int shardOf(TableDef def, String k) throws SQLException {
    Placement p = store.lookup(def.keySpace(), k);
    return p == null ? -1 : p.shardId();
  }
}
