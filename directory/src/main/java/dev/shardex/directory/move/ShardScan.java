package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.DirectoryStore.KeyEntry;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads what verify and rebalance need: the key map, and the rows per key of a table on a shard. */
final class ShardScan {
  private ShardScan() {}

  static List<TableDef> shardedTables(DirectoryStore store, String keySpace) throws SQLException {
    return store.tables().stream().filter(t -> t.kind() == TableKind.SHARDED && keySpace.equals(t.keySpace()))
        .sorted(Comparator.comparing(TableDef::name)).toList();
  }

  static Map<String, KeyEntry> keyMap(DirectoryStore store, String keySpace) throws SQLException {
    Map<String, KeyEntry> keys = new HashMap<>();
    store.forEachKey(keySpace, e -> keys.put(e.key(), e));
    return keys;
  }

  /** Streams {@code key -> row count} of one table on one shard. */
  static Map<String, Long> rowsPerKey(Connection c, TableShape shape) throws SQLException {
    Map<String, Long> rows = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(shape.countPerKey(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      ps.setFetchSize(Integer.MIN_VALUE);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return rows;
  }
}
