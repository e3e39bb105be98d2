package dev.shardex.directory.lookup;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangeLog;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Lookup indexes in the directory, uncached ({@link Lookups} caches them): the catalog
 * ({@code lookup_indexes}) and the entries ({@code lookup_unique}: one key per value, its primary
 * key {@code (index_id, v)} is what makes a value unique across shards; {@code lookup_multi}: any
 * number of keys per value). Every entry write is one autocommit statement or a short directory
 * transaction, never part of an application's transaction (see the driver's LookupWrites).
 *
 * <p>An entry of a unique index that is deleted or re-pointed logs a LOOKUP change in the same
 * transaction, so a driver that cached it drops it; new entries are not logged (absence is never
 * cached), nor are non-unique ones (never cached).
 */
public final class LookupStore {
  private final DirectoryStore store;

  public LookupStore(DirectoryStore store) {
    this.store = store;
  }

  // ---- the catalog ------------------------------------------------------------------------------

  /** Declares a lookup on {@code table.column} (unique or not); a TABLE change tells every driver. */
  public void declare(String table, String column, boolean unique) throws SQLException {
    String t = TableDef.normalise(table);
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO lookup_indexes (table_name, column_name, is_unique) "
          + "VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE is_unique = VALUES(is_unique)")) {
        ps.setString(1, t);
        ps.setString(2, TableDef.normalise(column));
        ps.setBoolean(3, unique);
        ps.executeUpdate();
      }
      return ChangeLog.append(c, Change.Kind.TABLE, null, null, t);
    });
  }

  /** Forgets a table's lookups and their entries (DROP TABLE). */
  public void dropAll(String table) throws SQLException {
    String t = TableDef.normalise(table);
    store.inTransaction(c -> {
      for (Lookup l : of(c, t)) {
        update(c, "DELETE FROM lookup_unique WHERE index_id = ?", l.id());
        update(c, "DELETE FROM lookup_multi WHERE index_id = ?", l.id());
      }
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM lookup_indexes WHERE table_name = ?")) {
        ps.setString(1, t);
        ps.executeUpdate();
      }
      return ChangeLog.append(c, Change.Kind.TABLE, null, null, t);
    });
  }

  /** RENAME TABLE: the lookups (and their entries, by index id) go with the table. */
  public void rename(String from, String to) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE lookup_indexes SET table_name = ? WHERE table_name = ?")) {
        ps.setString(1, TableDef.normalise(to));
        ps.setString(2, TableDef.normalise(from));
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.TABLE, null, null, TableDef.normalise(from));
      return ChangeLog.append(c, Change.Kind.TABLE, null, null, TableDef.normalise(to));
    });
  }

  /** The table's lookups, in declaration order. */
  public List<Lookup> of(String table) throws SQLException {
    return store.query("SELECT id, table_name, column_name, is_unique FROM lookup_indexes WHERE table_name = ? ORDER BY id",
        ps -> ps.setString(1, TableDef.normalise(table)), LookupStore::lookup);
  }

  /** Every lookup of every table. */
  public List<Lookup> all() throws SQLException {
    return store.query("SELECT id, table_name, column_name, is_unique FROM lookup_indexes ORDER BY table_name, id",
        ps -> {}, LookupStore::lookup);
  }

  private static List<Lookup> of(Connection c, String table) throws SQLException {
    List<Lookup> found = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT id, table_name, column_name, is_unique FROM lookup_indexes WHERE table_name = ? FOR UPDATE")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.add(lookup(rs));
        }
      }
    }
    return found;
  }

  private static Lookup lookup(ResultSet rs) throws SQLException {
    return new Lookup(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getBoolean(4));
  }

  // ---- entries ----------------------------------------------------------------------------------

  /**
   * Adds the entry {@code v -> k}. Returns null when it is there now (added, or already there with
   * this key); for a unique lookup whose value another key holds, that key (the caller decides
   * whether it is an orphan to {@link #repoint}, or a duplicate).
   */
  public String claim(Lookup l, String v, String k) throws SQLException {
    String table = l.unique() ? "lookup_unique" : "lookup_multi";
    return store.autocommit(c -> {
      if (update(c, "INSERT IGNORE INTO " + table + " (index_id, v, k) VALUES (?, ?, ?)", l.id(), v, k) == 1 || !l.unique()) {
        return null;
      }
      String holder = holder(c, l, v);
      return holder == null || holder.equals(k) ? null : holder;
    });
  }

  private static String holder(Connection c, Lookup l, String v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT k FROM lookup_unique WHERE index_id = ? AND v = ?")) {
      ps.setInt(1, l.id());
      ps.setString(2, v);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /**
   * Re-points an orphan entry (its row is gone) from {@code from} to {@code to}; false when the entry
   * no longer names {@code from} (another writer re-pointed or deleted it first).
   */
  public boolean repoint(Lookup l, String v, String from, String to) throws SQLException {
    return store.inTransaction(c -> {
      int n = update(c, "UPDATE lookup_unique SET k = ? WHERE index_id = ? AND v = ? AND k = ?", to, l.id(), v, from);
      if (n == 1) {
        ChangeLog.append(c, Change.Kind.LOOKUP, null, v, Integer.toString(l.id()));
      }
      return n == 1;
    });
  }

  /** Deletes the entry {@code v -> k}, if it is there. */
  public void remove(Lookup l, String v, String k) throws SQLException {
    if (!l.unique()) {
      store.autocommit(c -> update(c, "DELETE FROM lookup_multi WHERE index_id = ? AND v = ? AND k = ?", l.id(), v, k));
      return;
    }
    store.inTransaction(c -> {
      int n = update(c, "DELETE FROM lookup_unique WHERE index_id = ? AND v = ? AND k = ?", l.id(), v, k);
      return n == 1 ? ChangeLog.append(c, Change.Kind.LOOKUP, null, v, Integer.toString(l.id())) : 0L;
    });
  }

  /** The keys the entries of {@code v} name (at most one for a unique lookup). */
  public List<String> keys(Lookup l, String v) throws SQLException {
    return store.query("SELECT k FROM " + (l.unique() ? "lookup_unique" : "lookup_multi") + " WHERE index_id = ? AND v = ?",
        ps -> {
          ps.setInt(1, l.id());
          ps.setString(2, v);
        }, rs -> rs.getString(1));
  }

  /** The distinct keys the entries of any of {@code vs} name, in one round trip. */
  public List<String> keys(Lookup l, List<String> vs) throws SQLException {
    String marks = String.join(", ", java.util.Collections.nCopies(vs.size(), "?"));
    return store.query("SELECT DISTINCT k FROM " + (l.unique() ? "lookup_unique" : "lookup_multi")
        + " WHERE index_id = ? AND v IN (" + marks + ")", ps -> {
          ps.setInt(1, l.id());
          for (int i = 0; i < vs.size(); i++) {
            ps.setString(i + 2, vs.get(i));
          }
        }, rs -> rs.getString(1));
  }

  /** How many entries the index holds (the CLI's list). */
  public long count(Lookup l) throws SQLException {
    return store.query("SELECT COUNT(*) FROM " + (l.unique() ? "lookup_unique" : "lookup_multi") + " WHERE index_id = ?",
        ps -> ps.setInt(1, l.id()), rs -> rs.getLong(1)).get(0);
  }

  private static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      return ps.executeUpdate();
    }
  }
}
