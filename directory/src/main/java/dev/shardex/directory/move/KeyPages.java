package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore.KeyEntry;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.vocabulary.KeyType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what verify and rebalance planning need a page of keys at a time, so that neither holds a
 * key space in memory (10 million keys would take gigabytes of heap): the shards count the rows per
 * key (GROUP BY on the server) and the directory answers for a page of keys at once.
 *
 * <p>Why pages of keys and not a merge of two sorted streams: the key map orders keys by their
 * bytes and a shard by the key column's type ('10' before '9' against 9 before 10), so the two
 * orders do not meet; a page of one side is looked up on the other by an IN list instead.
 */
final class KeyPages {
  static final int PAGE = 1_000;

  /** Receives one page: each key of the page in order, with what was found for it. */
  interface Sink<T> {
    /** Returns false to stop reading further pages. */
    boolean page(Map<String, T> page) throws SQLException;
  }

  /** A key's row count on a shard and its key-map entry (null: the key map does not know it). */
  record Counted(long rows, KeyEntry owner) {}

  private KeyPages() {}

  /**
   * Streams one table's {@code key -> rows} on a shard in key order, counted by the shard, and hands
   * it on in pages with each key's owner from the directory.
   */
  static void rowsWithOwners(DirectoryStore store, String keySpace, Connection shard, TableShape shape, Sink<Counted> sink)
      throws SQLException {
    Map<String, Long> rows = new LinkedHashMap<>();
    try (PreparedStatement ps = shard.prepareStatement(shape.countPerKey() + " ORDER BY " + TableShape.quote(shape.keyColumn),
        ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      ps.setFetchSize(Integer.MIN_VALUE); // Connector/J streams the rows instead of buffering them all
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.put(rs.getString(1), rs.getLong(2));
          if (rows.size() == PAGE && !withOwners(store, keySpace, rows, sink)) {
            return;
          }
        }
      }
    }
    if (!rows.isEmpty()) {
      withOwners(store, keySpace, rows, sink);
    }
  }

  private static boolean withOwners(DirectoryStore store, String keySpace, Map<String, Long> rows, Sink<Counted> sink)
      throws SQLException {
    Map<String, KeyEntry> owners = entries(store, keySpace, rows.keySet());
    Map<String, Counted> page = new LinkedHashMap<>();
    rows.forEach((k, n) -> page.put(k, new Counted(n, owners.get(k))));
    rows.clear();
    return sink.page(page);
  }

  /** The key-map entries of a page of keys (absent keys are left out). */
  static Map<String, KeyEntry> entries(DirectoryStore store, String keySpace, Set<String> keys) throws SQLException {
    Map<String, KeyEntry> found = new HashMap<>();
    if (keys.isEmpty()) {
      return found;
    }
    String sql = "SELECT k, shard_id, state FROM key_map WHERE keyspace = ? AND k IN (" + marks(keys.size()) + ")";
    try (Connection c = store.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, keySpace);
      int i = 2;
      for (String k : keys) {
        ps.setString(i++, k);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.put(rs.getString(1), new KeyEntry(rs.getString(1), rs.getInt(2), KeyState.valueOf(rs.getString(3))));
        }
      }
    }
    return found;
  }

  /**
   * Walks the ACTIVE keys a shard owns in key order (the key map's by-shard index), a page at a
   * time, with each key's rows there summed over the key space's tables (counted by the shard).
   * Keys in {@code skip} (being moved) are left out.
   */
  static void ownedLoads(DirectoryStore store, String keySpace, int shardId, Connection shard, List<TableShape> shapes,
      KeyType type, Set<String> skip, Sink<Long> sink) throws SQLException {
    String after = null;
    while (true) {
      List<String> keys = activeKeysAfter(store, keySpace, shardId, after);
      if (keys.isEmpty()) {
        return;
      }
      after = keys.get(keys.size() - 1);
      Map<String, Long> page = new LinkedHashMap<>();
      keys.stream().filter(k -> !skip.contains(k)).forEach(k -> page.put(k, 0L));
      for (TableShape shape : shapes) {
        countRows(shard, shape, type, page);
      }
      if (!sink.page(Collections.unmodifiableMap(page)) || keys.size() < PAGE) {
        return;
      }
    }
  }

  private static List<String> activeKeysAfter(DirectoryStore store, String keySpace, int shardId, String after)
      throws SQLException {
    String sql = "SELECT k FROM key_map WHERE keyspace = ? AND shard_id = ? AND state = 'ACTIVE'"
        + (after == null ? "" : " AND k > ?") + " ORDER BY k LIMIT " + PAGE;
    List<String> keys = new ArrayList<>(PAGE);
    try (Connection c = store.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, keySpace);
      ps.setInt(2, shardId);
      if (after != null) {
        ps.setString(3, after);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.add(rs.getString(1));
        }
      }
    }
    return keys;
  }

  /** Adds one table's rows per key of the page, counted by the shard. */
  private static void countRows(Connection shard, TableShape shape, KeyType type, Map<String, Long> page) throws SQLException {
    if (page.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = shard.prepareStatement(shape.countPerKeyIn(page.size()))) {
      int i = 1;
      for (String k : page.keySet()) {
        TableShape.bindKey(ps, i++, type, k);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long rows = rs.getLong(2);
          page.computeIfPresent(rs.getString(1), (k, n) -> n + rows);
        }
      }
    }
  }

  static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }
}
