package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The batched reads {@link LookupVerifier} checks a page of rows or entries with: one round trip
 * per page and side, never a whole table or index in memory.
 */
final class LookupPages {
  /** Rows or entries checked per round trip. */
  static final int PAGE = 500;

  private final DirectoryStore store;
  private final ShardConnector shards;

  LookupPages(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
  }

  /** One entry, or one row's value and key. */
  record Pair(String v, Object raw, String k) {
    String id() {
      return LookupValue.folded(v) + '\u0000' + k;
    }
  }

  /** The shard each key is placed on (keys the key map does not know are absent). */
  Map<String, Integer> owners(String keySpace, Collection<String> keys) throws SQLException {
    Map<String, Integer> owners = new HashMap<>();
    if (keys.isEmpty()) {
      return owners;
    }
    List<String> distinct = List.copyOf(new HashSet<>(keys));
    query("SELECT k, shard_id FROM key_map WHERE keyspace = ? AND k IN (" + marks(distinct.size()) + ")", keySpace, distinct,
        rs -> owners.put(rs.getString(1), rs.getInt(2)));
    return owners;
  }

  /** The keys the entries of the values name, by folded value (the directory's collation). */
  Map<String, List<String>> entries(Lookup l, Collection<String> vs) throws SQLException {
    Map<String, List<String>> found = new HashMap<>();
    if (vs.isEmpty()) {
      return found;
    }
    List<String> distinct = List.copyOf(new HashSet<>(vs));
    query("SELECT v, k FROM " + table(l) + " WHERE index_id = ? AND v IN (" + marks(distinct.size()) + ")", l.id(), distinct,
        rs -> found.computeIfAbsent(LookupValue.folded(rs.getString(1)), x -> new ArrayList<>()).add(rs.getString(2)));
    return found;
  }

  /** Receives the rows of a shard scan, a page at a time. */
  interface PageSink {
    void accept(List<Pair> page) throws SQLException;
  }

  /**
   * Streams the rows of the table on one shard that have a value in the lookup's column, a page at
   * a time, keeping those whose key the shard owns (a moving key's copy on a shard that does not
   * own it yet is skipped).
   */
  void forEachRowPage(Lookup l, TableDef def, int shard, PageSink sink) throws SQLException {
    String sql = "SELECT " + quote(l.column()) + ", " + quote(def.keyColumn()) + " FROM " + quote(def.name()) + " WHERE "
        + quote(l.column()) + " IS NOT NULL";
    List<Pair> page = new ArrayList<>();
    try (Connection c = shards.connect(shard);
        PreparedStatement ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      ps.setFetchSize(Integer.MIN_VALUE); // Connector/J: stream rows instead of buffering the table
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Object raw = rs.getObject(1);
          page.add(new Pair(LookupValue.of(raw), raw, rs.getString(2)));
          if (page.size() == PAGE) {
            sink.accept(owned(def, shard, page));
            page.clear();
          }
        }
      }
    }
    if (!page.isEmpty()) {
      sink.accept(owned(def, shard, page));
    }
  }

  private List<Pair> owned(TableDef def, int shard, List<Pair> page) throws SQLException {
    Map<String, Integer> owners = owners(def.keySpace(), page.stream().map(Pair::k).toList());
    return page.stream().filter(p -> Integer.valueOf(shard).equals(owners.get(p.k()))).toList();
  }

  /** A page of the lookup's entries after {@code after} (null: from the start), in the index's order. */
  List<Pair> entriesAfter(Lookup l, Pair after) throws SQLException {
    String where = after == null ? "" : l.unique() ? " AND v > ?" : " AND (v > ? OR (v = ? AND k > ?))";
    List<Object> args = after == null ? List.of() : l.unique() ? List.of(after.v()) : List.of(after.v(), after.v(), after.k());
    List<Pair> page = new ArrayList<>();
    query("SELECT v, k FROM " + table(l) + " WHERE index_id = ?" + where + " ORDER BY v" + (l.unique() ? "" : ", k")
        + " LIMIT " + PAGE, l.id(), args, rs -> page.add(new Pair(rs.getString(1), rs.getString(1), rs.getString(2))));
    return page;
  }

  /** Which of the pairs the shard holds a row for ({@link Pair#id}s), in one query. */
  Set<String> rowsOn(int shard, TableDef def, String column, Collection<Pair> pairs) throws SQLException {
    List<Object> keys = pairs.stream().map(p -> (Object) p.k()).distinct().toList();
    List<Object> values = pairs.stream().map(p -> p.raw()).distinct().toList();
    String sql = "SELECT " + quote(column) + ", " + quote(def.keyColumn()) + " FROM " + quote(def.name()) + " WHERE "
        + quote(def.keyColumn()) + " IN (" + marks(keys.size()) + ") AND " + quote(column) + " IN (" + marks(values.size()) + ")";
    Set<String> present = new HashSet<>();
    try (Connection c = shards.connect(shard); PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      for (Object k : keys) {
        ps.setObject(i++, k);
      }
      for (Object v : values) {
        ps.setObject(i++, v);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String v = LookupValue.of(rs.getObject(1));
          present.add(new Pair(v, null, rs.getString(2)).id());
        }
      }
    }
    return present;
  }

  private interface RowSink {
    void accept(ResultSet rs) throws SQLException;
  }

  private void query(String sql, Object first, List<?> rest, RowSink sink) throws SQLException {
    try (Connection c = store.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setObject(1, first);
      for (int i = 0; i < rest.size(); i++) {
        ps.setObject(i + 2, rest.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          sink.accept(rs);
        }
      }
    }
  }

  static String table(Lookup l) {
    return l.unique() ? "lookup_unique" : "lookup_multi";
  }

  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  private static String marks(int n) {
    return String.join(", ", java.util.Collections.nCopies(n, "?"));
  }
}
