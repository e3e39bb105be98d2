package dev.shardex.directory.catalog;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangeLog;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import dev.shardex.directory.Redact;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The catalog's tables in the directory database ({@code shards}, {@code keyspaces},
 * {@code logical_tables}), read and written with no caching. Every write appends to the change log in
 * the same transaction, so every driver's catalog cache hears of it.
 */
public final class CatalogStore {
  private final DirectoryStore store;

  public CatalogStore(DirectoryStore store) {
    this.store = store;
  }

  public void addShard(int id, String url, double weight) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO shards (id, url, weight) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE url = VALUES(url), weight = VALUES(weight)")) {
        ps.setInt(1, id);
        ps.setString(2, Redact.url(url));
        ps.setDouble(3, weight);
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  public void setShardStatus(int id, ShardStatus status) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE shards SET status = ? WHERE id = ?")) {
        ps.setString(1, status.name());
        ps.setInt(2, id);
        if (ps.executeUpdate() == 0) {
          throw ShardexError.UNKNOWN_SHARD.exception(id);
        }
      }
      ChangeLog.append(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  public List<Shard> shards() throws SQLException {
    return store.query("SELECT id, url, status, weight, key_count FROM shards ORDER BY id", ps -> {}, rs -> new Shard(
        rs.getInt(1), rs.getString(2), ShardStatus.valueOf(rs.getString(3)), rs.getDouble(4), rs.getLong(5)));
  }

  /**
   * Removes a shard from the catalog, refused while the key map places any key on it or a SINGLE
   * table lives there: its rows would become unreachable.
   */
  public void removeShard(int id) throws SQLException {
    store.inTransaction(c -> {
      long keys = count(c, "SELECT COUNT(*) FROM key_map WHERE shard_id = ?", id);
      long singles = count(c, "SELECT COUNT(*) FROM logical_tables WHERE kind = 'SINGLE' AND home_shard = ?", id);
      if (keys > 0 || singles > 0) {
        throw ShardexError.SHARD_NOT_EMPTY.exception(id,
            keys > 0 ? keys + " key(s)" : singles + " SINGLE table(s) (re-declare them on another shard)", id);
      }
      ReplicaStore.removeAll(c, id);
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM shards WHERE id = ?")) {
        ps.setInt(1, id);
        if (ps.executeUpdate() == 0) {
          throw ShardexError.UNKNOWN_SHARD.exception(id);
        }
      }
      ChangeLog.append(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  /** Sets a shard's weight (placement and rebalance targets follow it); logged like every catalog change. */
  public void setShardWeight(int id, double weight) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE shards SET weight = ? WHERE id = ?")) {
        ps.setDouble(1, weight);
        ps.setInt(2, id);
        if (ps.executeUpdate() == 0) {
          throw ShardexError.UNKNOWN_SHARD.exception(id);
        }
      }
      ChangeLog.append(c, Change.Kind.SHARD, null, null, Integer.toString(id));
      return null;
    });
  }

  private static long count(Connection c, String sql, int arg) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, arg);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  // ---- key spaces and tables --------------------------------------------------------------------

  public void addKeySpace(KeySpace keySpace) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO keyspaces (name, key_type, placement) VALUES (?, ?, ?) "
              + "ON DUPLICATE KEY UPDATE key_type = VALUES(key_type), placement = VALUES(placement)")) {
        ps.setString(1, keySpace.name());
        ps.setString(2, keySpace.keyType().name());
        ps.setString(3, keySpace.placement());
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.KEYSPACE, keySpace.name(), null, null);
      return null;
    });
  }

  public List<KeySpace> keySpaces() throws SQLException {
    return store.query("SELECT name, key_type, placement FROM keyspaces ORDER BY name", ps -> {},
        rs -> new KeySpace(rs.getString(1), KeyType.valueOf(rs.getString(2)), rs.getString(3)));
  }

  public KeySpace keySpace(String name) throws SQLException {
    List<KeySpace> found = store.query("SELECT name, key_type, placement FROM keyspaces WHERE name = ?",
        ps -> ps.setString(1, name), rs -> new KeySpace(rs.getString(1), KeyType.valueOf(rs.getString(2)), rs.getString(3)));
    return found.isEmpty() ? null : found.get(0);
  }

  public void declareTable(TableDef table) throws SQLException {
    if (table.kind() == TableKind.SHARDED && keySpace(table.keySpace()) == null) {
      throw ShardexError.BAD_DECLARATION.exception("of table " + table.name(),
          "key space '" + table.keySpace() + "' does not exist; add it with 'shardex keyspaces add'");
    }
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO logical_tables (name, kind, keyspace, key_column, home_shard) VALUES (?, ?, ?, ?, ?) "
              + "ON DUPLICATE KEY UPDATE kind = VALUES(kind), keyspace = VALUES(keyspace), "
              + "key_column = VALUES(key_column), home_shard = VALUES(home_shard)")) {
        ps.setString(1, table.name());
        ps.setString(2, table.kind().name());
        ps.setString(3, table.keySpace());
        ps.setString(4, table.keyColumn());
        ps.setObject(5, table.homeShard());
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.TABLE, null, null, table.name());
      return null;
    });
  }

  public void dropTable(String name) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM logical_tables WHERE name = ?")) {
        ps.setString(1, name);
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.TABLE, null, null, name);
      return null;
    });
  }

  public TableDef table(String name) throws SQLException {
    List<TableDef> found = store.query(
        "SELECT name, kind, keyspace, key_column, home_shard FROM logical_tables WHERE name = ?",
        ps -> ps.setString(1, name), CatalogStore::tableDef);
    return found.isEmpty() ? null : found.get(0);
  }

  public List<TableDef> tables() throws SQLException {
    return store.query("SELECT name, kind, keyspace, key_column, home_shard FROM logical_tables ORDER BY name",
        ps -> {}, CatalogStore::tableDef);
  }

  private static TableDef tableDef(ResultSet rs) throws SQLException {
    int home = rs.getInt(5);
    Integer homeShard = rs.wasNull() ? null : home;
    return new TableDef(rs.getString(1), TableKind.valueOf(rs.getString(2)), rs.getString(3), rs.getString(4), homeShard);
  }
}
