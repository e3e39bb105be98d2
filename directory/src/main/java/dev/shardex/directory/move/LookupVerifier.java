package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.directory.lookup.LookupStore;
import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a lookup against the rows on the shards ({@code shardex lookups verify}, and the lookup
 * part of {@code shardex verify}), in two streamed passes, a page at a time ({@link LookupPages}):
 *
 * <ul>
 *   <li>rows: every row of a key its shard owns must have its entry naming its key; a row without
 *       one is MISSING (writes made outside Shardex, or entries deleted by hand), and a row whose
 *       unique value another key's live row holds is a DUPLICATE (the data breaks the uniqueness);
 *   <li>entries: every entry must name a key whose shard holds a row with the value; one that does
 *       not is EXTRA (left by a crash between a write's steps or a rolled-back transaction).
 * </ul>
 *
 * <p>A suspect is checked again before it is reported (its row by a locking read, which waits for
 * a write in flight, then its entry), so writes running meanwhile are not reported. Repair re-adds
 * a missing entry (re-pointing an orphan that holds the value, as {@code lookups build} does) and
 * deletes an extra one after locking it and checking its row once more; rows run first, so a
 * re-pointed entry is moved in one step, never deleted and re-added. Duplicates are left as they
 * are: only the application can say which row keeps the value.
 */
public final class LookupVerifier {
  public enum Kind { MISSING, EXTRA, DUPLICATE }

  /** One problem: the value, the key of its row (MISSING, DUPLICATE) or of its entry (EXTRA), and what was found or done. */
  public record Finding(Kind kind, String v, String k, String detail) {}

  /** A lookup's health: exact counts, the first {@link #LISTED} findings, and how many a repair fixed. */
  public record Report(Lookup lookup, long missing, long extra, long duplicate, long repaired, List<Finding> findings) {
    public boolean clean() {
      return missing + extra + duplicate == 0;
    }

    /** After a repair: whether everything but what no repair settles (duplicates) was fixed. */
    public boolean repairedAll() {
      return missing + extra == repaired;
    }
  }

  /** Findings listed per lookup; the counts are exact beyond. */
  public static final int LISTED = 1000;

  private final DirectoryStore store;
  private final ShardConnector shards;
  private final LookupPages pages;
  private final LookupStore lookups;
  private final LookupBackfill backfill;

  public LookupVerifier(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
    this.pages = new LookupPages(store, shards);
    this.lookups = new LookupStore(store);
    this.backfill = new LookupBackfill(store, shards);
  }

  /** Every lookup's health, nothing repaired (the general {@code shardex verify}). */
  public List<Report> checkAll() throws SQLException {
    List<Report> all = new ArrayList<>();
    for (Lookup l : lookups.all()) {
      all.add(check(l, false));
    }
    return all;
  }

  public Report check(Lookup l, boolean repair) throws SQLException {
    TableDef def = store.table(l.table());
    Tally t = new Tally(l);
    List<Integer> readable = store.shards().stream().filter(s -> s.status().acceptsReads()).map(Shard::id).toList();
    for (int shard : readable) {
      pages.forEachRowPage(l, def, shard, page -> rows(l, def, page, repair, t));
    }
    LookupPages.Pair after = null;
    for (List<LookupPages.Pair> page = pages.entriesAfter(l, null); !page.isEmpty(); page = pages.entriesAfter(l, after)) {
      entries(l, def, page, readable, repair, t);
      after = page.get(page.size() - 1);
    }
    return t.report();
  }

  // ---- rows: missing entries and duplicates ---------------------------------------------------------

  private void rows(Lookup l, TableDef def, List<LookupPages.Pair> page, boolean repair, Tally t) throws SQLException {
    Map<String, List<String>> entries = pages.entries(l, page.stream().map(LookupPages.Pair::v).toList());
    for (LookupPages.Pair row : page) {
      if (!entries.getOrDefault(LookupValue.folded(row.v()), List.of()).contains(row.k())) {
        suspectRow(l, def, row, repair, t);
      }
    }
  }

  /** A row whose entry was not there when its page was read: checked again, then reported (and repaired). */
  private void suspectRow(Lookup l, TableDef def, LookupPages.Pair row, boolean repair, Tally t) throws SQLException {
    if (!exists(store, shards, def, l.column(), row.raw(), row.k())) {
      return; // deleted since the scan read it
    }
    List<String> keys = lookups.keys(l, row.v());
    if (keys.contains(row.k())) {
      return; // written since
    }
    String holder = l.unique() && !keys.isEmpty() ? keys.get(0) : null;
    if (holder != null && exists(store, shards, def, l.column(), row.raw(), holder)) {
      t.add(Kind.DUPLICATE, row, backfill.conflict(l, def, row.v(), holder, row.k()), false);
      return;
    }
    String found = holder == null ? "no entry" : "the entry names key " + holder + ", which has no such row";
    LookupBackfill.Added a = repair ? backfill.add(l, def, row.raw(), row.k()) : null;
    t.add(a != null && a.conflict() != null ? Kind.DUPLICATE : Kind.MISSING, row,
        a == null ? found : found + ": " + a.detail(), a != null && a.added());
  }

  // ---- entries: extra ones ---------------------------------------------------------------------------

  private void entries(Lookup l, TableDef def, List<LookupPages.Pair> page, List<Integer> readable, boolean repair, Tally t)
      throws SQLException {
    Map<String, Integer> owners = pages.owners(def.keySpace(), page.stream().map(LookupPages.Pair::k).toList());
    Map<Integer, List<LookupPages.Pair>> byShard = new HashMap<>();
    for (LookupPages.Pair e : page) {
      Integer owner = owners.get(e.k());
      if (owner == null) {
        suspectEntry(l, def, e, repair, t);
      } else if (readable.contains(owner)) {
        byShard.computeIfAbsent(owner, x -> new ArrayList<>()).add(e);
      }
    }
    for (Map.Entry<Integer, List<LookupPages.Pair>> s : byShard.entrySet()) {
      Set<String> present = pages.rowsOn(s.getKey(), def, l.column(), s.getValue());
      for (LookupPages.Pair e : s.getValue()) {
        if (!present.contains(e.id())) {
          suspectEntry(l, def, e, repair, t);
        }
      }
    }
  }

  /** An entry whose row was not found: checked again (its row, then the entry), then reported (and deleted). */
  private void suspectEntry(Lookup l, TableDef def, LookupPages.Pair e, boolean repair, Tally t) throws SQLException {
    if (exists(store, shards, def, l.column(), e.v(), e.k()) || !lookups.keys(l, e.v()).contains(e.k())) {
      return;
    }
    boolean deleted = repair && delete(l, def, e);
    t.add(Kind.EXTRA, e, "no row with the value under this key" + (repair ? deleted ? ": deleted" : ": kept, its row is there now" : ""),
        deleted);
  }

  private boolean delete(Lookup l, TableDef def, LookupPages.Pair e) throws SQLException {
    try (LookupClaim claim = LookupClaim.open(store)) {
      boolean gone = claim.lock(l, e.v(), e.k()) && !exists(store, shards, def, l.column(), e.v(), e.k());
      if (gone) {
        claim.delete(l, e.v(), e.k());
      }
      claim.commit();
      return gone;
    }
  }

  /** Key {@code k}'s shard holds a row of {@code def} with {@code column = value} (a locking read: it waits for a write in flight). */
  static boolean exists(DirectoryStore store, ShardConnector shards, TableDef def, String column, Object value, String k)
      throws SQLException {
    Placement p = store.lookup(def.keySpace(), k);
    if (p == null) {
      return false;
    }
    try (Connection c = shards.connect(p.shardId()); PreparedStatement ps = c.prepareStatement("SELECT 1 FROM "
        + LookupPages.quote(def.name()) + " WHERE " + LookupPages.quote(column) + " = ? AND "
        + LookupPages.quote(def.keyColumn()) + " = ? LIMIT 1 LOCK IN SHARE MODE")) {
      ps.setObject(1, value);
      ps.setString(2, k);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** The counts and the listed findings of one check. */
  private static final class Tally {
    private final Lookup lookup;
    private final long[] counts = new long[Kind.values().length];
    private long repaired;
    private final List<Finding> findings = new ArrayList<>();

    Tally(Lookup lookup) {
      this.lookup = lookup;
    }

    void add(Kind kind, LookupPages.Pair at, String detail, boolean fixed) {
      counts[kind.ordinal()]++;
      repaired += fixed ? 1 : 0;
      if (findings.size() < LISTED) {
        findings.add(new Finding(kind, at.v(), at.k(), detail));
      }
    }

    Report report() {
      return new Report(lookup, counts[Kind.MISSING.ordinal()], counts[Kind.EXTRA.ordinal()],
          counts[Kind.DUPLICATE.ordinal()], repaired, List.copyOf(findings));
    }
  }
}
