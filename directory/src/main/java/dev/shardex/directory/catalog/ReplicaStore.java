package dev.shardex.directory.catalog;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.Redact;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangeLog;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The replica catalog ({@code shard_replicas}): each shard's read replicas, read and written with no
 * caching. A replica change is a change of its shard: it appends a SHARD entry naming the shard, in
 * the same transaction, so every driver reloads its shards and their replicas within its poll.
 *
 * <p>The catalog only declares replicas; it never discovers or promotes one (the operator's HA tooling
 * does that, see docs/replicas.md). Whether a declared replica is fit to read is measured, not stored.
 */
public final class ReplicaStore {
  private static final String COLUMNS = "shard_id, replica_id, url, weight, status";
  private final DirectoryStore store;

  public ReplicaStore(DirectoryStore store) {
    this.store = store;
  }

  /** Adds a replica to a shard and returns its id (the shard's highest so far plus one); SHX1404 for an unknown shard. */
  public int addReplica(int shardId, String url, double weight) throws SQLException {
    return store.inTransaction(c -> {
      int id = nextId(c, shardId);
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO shard_replicas (shard_id, replica_id, url, weight) VALUES (?, ?, ?, ?)")) {
        ps.setInt(1, shardId);
        ps.setInt(2, id);
        ps.setString(3, Redact.url(url));
        ps.setDouble(4, weight);
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.SHARD, null, null, Integer.toString(shardId));
      return id;
    });
  }

  /** Locks the shard's row, so two concurrent adds to one shard take different ids. */
  private static int nextId(Connection c, int shardId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM shards WHERE id = ? FOR UPDATE")) {
      ps.setInt(1, shardId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw ShardexError.UNKNOWN_SHARD.exception(shardId);
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT COALESCE(MAX(replica_id), 0) + 1 FROM shard_replicas WHERE shard_id = ?")) {
      ps.setInt(1, shardId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  /** Removes one replica; SHX1417 when the shard has no such replica. */
  public void removeReplica(int shardId, int replicaId) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM shard_replicas WHERE shard_id = ? AND replica_id = ?")) {
        ps.setInt(1, shardId);
        ps.setInt(2, replicaId);
        if (ps.executeUpdate() == 0) {
          throw ShardexError.UNKNOWN_REPLICA.exception(replicaId, shardId);
        }
      }
      ChangeLog.append(c, Change.Kind.SHARD, null, null, Integer.toString(shardId));
      return null;
    });
  }

  /** Drops a shard's replicas with the shard itself, inside the shard's removal ({@code c}'s transaction). */
  static void removeAll(Connection c, int shardId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM shard_replicas WHERE shard_id = ?")) {
      ps.setInt(1, shardId);
      ps.executeUpdate();
    }
  }

  /** Every replica of every shard, by shard and replica id. */
  public List<Replica> replicas() throws SQLException {
    return store.query("SELECT " + COLUMNS + " FROM shard_replicas ORDER BY shard_id, replica_id", ps -> {},
        ReplicaStore::replica);
  }

  private static Replica replica(ResultSet rs) throws SQLException {
    return new Replica(rs.getInt(1), rs.getInt(2), rs.getString(3), rs.getDouble(4), ReplicaStatus.valueOf(rs.getString(5)));
  }
}
