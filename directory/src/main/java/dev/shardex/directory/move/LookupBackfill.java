package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.Lookup;
import dev.shardex.directory.LookupStore;
import dev.shardex.directory.LookupValue;
import dev.shardex.directory.Placement;
import dev.shardex.directory.Shard;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds the entries of rows written before their lookup was declared ({@code shardex lookups
 * build}): each shard's rows of the table, those of keys the shard owns, get their entry. An
 * entry already there for the same key is kept; one naming a key whose row with the value is gone
 * (an orphan) is re-pointed; one naming another key that has the value too is a uniqueness
 * violation in the data, reported ({@code SHX1608}) and left as it is, never overwritten.
 * Drivers maintain the lookup from the moment they see its declaration, so rows written while
 * this runs are covered either way.
 */
public final class LookupBackfill {
  /** What a build did: rows read, entries added or re-pointed, and the values held by two live rows. */
  public record Report(long rows, long added, List<String> conflicts) {}

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
    Map<String, Integer> owners = new HashMap<>();
    for (Shard s : store.shards()) {
      if (s.status().acceptsReads()) {
        scan(l, def, s.id(), owners, counts, conflicts);
      }
    }
    return new Report(counts[0], counts[1], conflicts);
  }

  private void scan(Lookup l, TableDef def, int shard, Map<String, Integer> owners, long[] counts, List<String> conflicts)
      throws SQLException {
    String sql = "SELECT " + quote(l.column()) + ", " + quote(def.keyColumn()) + " FROM " + quote(def.name())
        + " WHERE " + quote(l.column()) + " IS NOT NULL";
    try (Connection c = shards.connect(shard); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        String k = rs.getString(2);
        if (owner(def, k, owners) == shard) { // a moving key's copy on a shard that does not own it yet is skipped
          counts[0]++;
          counts[1] += add(l, def, rs.getObject(1), k, conflicts);
        }
      }
    }
  }

  private int add(Lookup l, TableDef def, Object raw, String k, List<String> conflicts) throws SQLException {
    String v = LookupValue.of(raw);
    String holder = lookups.claim(l, v, k);
    if (holder == null) {
      return 1;
    }
    if (!LookupVerifier.exists(store, shards, def, l.column(), raw, holder)) {
      return lookups.repoint(l, v, holder, k) ? 1 : 0;
    }
    conflicts.add(ShardexError.LOOKUP_CONFLICT.message(def.name(), l.column(), v, holder, shardOf(def, holder), k,
        shardOf(def, k)));
    return 0;
  }

  private int owner(TableDef def, String k, Map<String, Integer> owners) throws SQLException {
    Integer shard = owners.get(k);
    if (shard == null) {
      shard = shardOf(def, k);
      owners.put(k, shard);
    }
    return shard;
  }

  private int shardOf(TableDef def, String k) throws SQLException {
    Placement p = store.lookup(def.keySpace(), k);
    return p == null ? -1 : p.shardId();
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
