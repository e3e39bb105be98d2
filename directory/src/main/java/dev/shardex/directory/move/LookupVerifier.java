package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.Lookup;
import dev.shardex.directory.LookupClaim;
import dev.shardex.directory.Placement;
import dev.shardex.directory.TableDef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the extra entries of a lookup ({@code shardex lookups verify}): entries whose key has no
 * row with the value on the key's shard, left by a crash between a write's steps or a rolled-back
 * transaction. They are harmless to reads (which re-check the row) and an INSERT of the value takes
 * them over; {@code repair} deletes them, each after locking it and checking the row again (a
 * row written meanwhile keeps its entry).
 */
public final class LookupVerifier {
  /** An entry without its row: value {@code v} naming key {@code k}. */
  public record Extra(String v, String k) {}

  private final DirectoryStore store;
  private final ShardConnector shards;

  public LookupVerifier(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
  }

  /** The lookup's entries whose row is gone; deleted too when {@code repair}. */
  public List<Extra> extras(Lookup l, boolean repair) throws SQLException {
    TableDef def = store.table(l.table());
    List<Extra> extras = new ArrayList<>();
    for (Extra e : entries(l)) {
      if (!exists(store, shards, def, l.column(), e.v(), e.k())) {
        extras.add(e);
        if (repair) {
          delete(l, def, e);
        }
      }
    }
    return extras;
  }

  private List<Extra> entries(Lookup l) throws SQLException {
    List<Extra> all = new ArrayList<>();
    try (Connection c = store.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(
        "SELECT v, k FROM " + (l.unique() ? "lookup_unique" : "lookup_multi") + " WHERE index_id = ? ORDER BY v")) {
      ps.setInt(1, l.id());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          all.add(new Extra(rs.getString(1), rs.getString(2)));
        }
      }
    }
    return all;
  }

  private void delete(Lookup l, TableDef def, Extra e) throws SQLException {
    try (LookupClaim claim = LookupClaim.open(store)) {
      if (claim.lock(l, e.v(), e.k()) && !exists(store, shards, def, l.column(), e.v(), e.k())) {
        claim.delete(l, e.v(), e.k());
      }
      claim.commit();
    }
  }

  /** Whether key {@code k}'s shard holds a row of {@code def} with {@code column = value} (a locking read). */
  static boolean exists(DirectoryStore store, ShardConnector shards, TableDef def, String column, Object value, String k)
      throws SQLException {
    Placement p = store.lookup(def.keySpace(), k);
    if (p == null) {
      return false;
    }
    try (Connection c = shards.connect(p.shardId()); PreparedStatement ps = c.prepareStatement("SELECT 1 FROM `"
        + def.name().replace("`", "``") + "` WHERE `" + column.replace("`", "``") + "` = ? AND `"
        + def.keyColumn().replace("`", "``") + "` = ? LIMIT 1 LOCK IN SHARE MODE")) {
      ps.setObject(1, value);
      ps.setString(2, k);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}
