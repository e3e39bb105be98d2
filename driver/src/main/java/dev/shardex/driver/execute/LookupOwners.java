package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.TableDef;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The owner rows behind lookup entries, read on their shards: whether the row an entry names is
 * there ({@link #exists}), and the old values of the rows an UPDATE or DELETE changes
 * ({@link #read}). A shard this session holds a connection of is read on that connection, so a
 * row its own open transaction wrote counts.
 */
final class LookupOwners {
  private final ShardSession session;
  private final Directory directory;

  LookupOwners(ShardSession session, Directory directory) {
    this.session = session;
    this.directory = directory;
  }

  /**
   * Whether a row of {@code def} has {@code column = value} under the key. A locking read: it waits
   * for an open transaction that wrote such a row, so a row about to commit is not taken for gone.
   */
  boolean exists(TableDef def, String column, Object value, Object key) throws SQLException {
    Placement p = directory.routeRead(def.keySpace(), directory.keySpace(def.keySpace()).keyType().canonical(key, def.name(), def.keyColumn()));
    if (p == null) {
      return false; // a key the directory does not know has no rows
    }
    String sql = "SELECT 1 FROM " + quote(def.name()) + " WHERE " + quote(column) + " = ? AND " + quote(def.keyColumn())
        + " = ? LIMIT 1 LOCK IN SHARE MODE";
    try (ShardLease lease = session.acquire(p.shardId(), false, session.pins(p.shardId()))) {
      return !rows(lease, sql, new Object[] {value, key}, 0, 1).isEmpty();
    }
  }

  /**
   * The rows {@code sql} (a read of a write's own WHERE) finds on each shard, locked in a
   * transaction (the write that follows changes exactly them), plain in autocommit.
   */
  List<Object[]> read(List<Integer> shards, String sql, Object[] params, int first, int columns) throws SQLException {
    boolean tx = !session.state().autoCommit();
    List<Object[]> found = new ArrayList<>();
    for (int shard : shards) {
      try (ShardLease lease = session.acquire(shard, tx, tx || session.pins(shard))) {
        found.addAll(rows(lease, tx ? sql + " FOR UPDATE" : sql, params, first, columns));
      }
    }
    return found;
  }

  private static List<Object[]> rows(ShardLease lease, String sql, Object[] params, int first, int columns)
      throws SQLException {
    try (PreparedStatement ps = lease.connection().prepareStatement(sql)) {
      for (int i = first; params != null && i < params.length && i - first < dev.shardex.driver.sql.SqlLexer.countParameters(sql); i++) {
        ps.setObject(i - first + 1, params[i]);
      }
      return collect(ps, columns);
    } catch (SQLException e) {
      throw lease.translate(e);
    }
  }

  /** The first {@code columns} columns of every row the query returns. */
  static List<Object[]> collect(PreparedStatement ps, int columns) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        Object[] row = new Object[columns];
        for (int c = 0; c < columns; c++) {
          row[c] = rs.getObject(c + 1);
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
