package dev.shardex.directory.placement;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.DirectoryStore.KeyEntry;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangeLog;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The key map in the directory database ({@code key_map}, and the shards' key counts): where each key
 * lives and in which state, read and written with no caching. Placing a new key is not logged (drivers
 * never cache a key's absence); every change to an existing key's placement or state is, in the same
 * transaction. The move's side (freeze, flip, unfreeze, announce) runs inside the mover's transaction.
 */
public final class KeyMapStore {
  private final DirectoryStore store;

  public KeyMapStore(DirectoryStore store) {
    this.store = store;
  }

  public Placement lookup(String keySpace, String key) throws SQLException {
    List<Placement> found = store.query("SELECT shard_id, state, version FROM key_map WHERE keyspace = ? AND k = ?", ps -> {
      ps.setString(1, keySpace);
      ps.setString(2, key);
    }, rs -> new Placement(rs.getInt(1), KeyState.valueOf(rs.getString(2)), rs.getLong(3)));
    return found.isEmpty() ? null : found.get(0);
  }

  /**
   * Places a new key on {@code shardId} unless some other driver placed it first; either way
   * returns the placement that won. INSERT IGNORE on the primary key is the arbiter.
   */
  public Placement placeIfAbsent(String keySpace, String key, int shardId) throws SQLException {
    boolean inserted = store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT IGNORE INTO key_map (keyspace, k, shard_id, state, version) VALUES (?, ?, ?, 'ACTIVE', 1)")) {
        ps.setString(1, keySpace);
        ps.setString(2, key);
        ps.setInt(3, shardId);
        if (ps.executeUpdate() == 0) {
          return false;
        }
      }
      adjustKeyCount(c, shardId, 1);
      return true;
    });
    if (inserted) {
      return new Placement(shardId, KeyState.ACTIVE, 1);
    }
    Placement winner = lookup(keySpace, key);
    if (winner == null) {
      throw ShardexError.DIRECTORY_STATE.exception("key '" + key + "' of key space " + keySpace
          + " was neither placed nor found in the key map; check the directory's key_map table");
    }
    return winner;
  }

  /** Puts a key on a shard (new or not), as an administrator does: logged, so caches drop it. */
  public void assign(String keySpace, String key, int shardId) throws SQLException {
    store.inTransaction(c -> {
      Integer previous = null;
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT shard_id FROM key_map WHERE keyspace = ? AND k = ? FOR UPDATE")) {
        ps.setString(1, keySpace);
        ps.setString(2, key);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            previous = rs.getInt(1);
          }
        }
      }
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO key_map (keyspace, k, shard_id, state, version) VALUES (?, ?, ?, 'ACTIVE', 1) "
              + "ON DUPLICATE KEY UPDATE shard_id = VALUES(shard_id), state = 'ACTIVE', version = version + 1")) {
        ps.setString(1, keySpace);
        ps.setString(2, key);
        ps.setInt(3, shardId);
        ps.executeUpdate();
      }
      if (previous != null) {
        adjustKeyCount(c, previous, -1);
      }
      adjustKeyCount(c, shardId, 1);
      ChangeLog.append(c, Change.Kind.KEY, keySpace, key, null);
      return null;
    });
  }

  private static void adjustKeyCount(Connection c, int shardId, int delta) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE shards SET key_count = key_count + ? WHERE id = ?")) {
      ps.setInt(1, delta);
      ps.setInt(2, shardId);
      ps.executeUpdate();
    }
  }

  /**
   * Freezes a key for a move, inside the caller's transaction (the mover journals the step in the
   * same one). Compare-and-set: only a key ACTIVE on {@code from} freezes. Returns the change id
   * every live client must apply before the key's rows may be copied.
   */
  public long freezeKey(Connection c, String keySpace, String key, int from) throws SQLException {
    return changeKeyState(c, keySpace, key, from, KeyState.ACTIVE, from, KeyState.FROZEN);
  }

  /** Flips a FROZEN key from {@code from} to {@code to}, ACTIVE; moves the key counts along. */
  public long flipKey(Connection c, String keySpace, String key, int from, int to) throws SQLException {
    long change = changeKeyState(c, keySpace, key, from, KeyState.FROZEN, to, KeyState.ACTIVE);
    // Lower shard id first: two flips in opposite directions must take the shard rows in one order.
    adjustKeyCount(c, Math.min(from, to), from < to ? -1 : 1);
    adjustKeyCount(c, Math.max(from, to), from < to ? 1 : -1);
    return change;
  }

  /**
   * Rolls a move back: a key FROZEN on {@code from} becomes ACTIVE there again. Idempotent: a key
   * already ACTIVE on {@code from} is left alone and 0 returned; any other state is refused.
   */
  public long unfreezeKey(Connection c, String keySpace, String key, int from) throws SQLException {
    Placement now = lockKey(c, keySpace, key);
    if (now != null && now.shardId() == from && now.state() == KeyState.ACTIVE) {
      return 0;
    }
    return changeKeyState(c, keySpace, key, from, KeyState.FROZEN, from, KeyState.ACTIVE);
  }

  private long changeKeyState(Connection c, String keySpace, String key, int from, KeyState fromState, int to,
      KeyState toState) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE key_map SET shard_id = ?, state = ?, version = version + 1 "
        + "WHERE keyspace = ? AND k = ? AND shard_id = ? AND state = ?")) {
      ps.setInt(1, to);
      ps.setString(2, toState.name());
      ps.setString(3, keySpace);
      ps.setString(4, key);
      ps.setInt(5, from);
      ps.setString(6, fromState.name());
      if (ps.executeUpdate() == 0) {
        Placement now = lockKey(c, keySpace, key);
        throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "expected it " + fromState + " on shard " + from
            + " but the directory has " + (now == null ? "no such key" : now.state() + " on shard " + now.shardId()));
      }
    }
    return ChangeLog.append(c, Change.Kind.KEY, keySpace, key, null);
  }

  /**
   * Announces a move's phase for a key, inside the caller's transaction: which shard's rows of the
   * key key-less reads must not see (see HiddenRows). Returns the change id.
   */
  public long announceMove(Connection c, String keySpace, String key, int from, int to, String phase) throws SQLException {
    return ChangeLog.append(c, Change.Kind.KEY, keySpace, key, HiddenRows.ref(from, to, HiddenRows.Phase.valueOf(phase)));
  }

  /** Reads a key's placement with a row lock, inside the caller's transaction. */
  public Placement lockKey(Connection c, String keySpace, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT shard_id, state, version FROM key_map WHERE keyspace = ? AND k = ? FOR UPDATE")) {
      ps.setString(1, keySpace);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new Placement(rs.getInt(1), KeyState.valueOf(rs.getString(2)), rs.getLong(3)) : null;
      }
    }
  }

  /** Up to {@code limit} ACTIVE keys of a key space on one shard, in key order (what 'users move --count' moves). */
  public List<String> activeKeysOn(String keySpace, int shardId, int limit) throws SQLException {
    return store.query("SELECT k FROM key_map WHERE keyspace = ? AND shard_id = ? AND state = 'ACTIVE' ORDER BY k LIMIT ?", ps -> {
      ps.setString(1, keySpace);
      ps.setInt(2, shardId);
      ps.setInt(3, limit);
    }, rs -> rs.getString(1));
  }

  /** The whole key map of a key space, streamed (verify and rebalance read it once). */
  public void forEachKey(String keySpace, java.util.function.Consumer<KeyEntry> sink) throws SQLException {
    try (Connection c = store.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT k, shard_id, state FROM key_map WHERE keyspace = ?",
            ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
      ps.setString(1, keySpace);
      ps.setFetchSize(Integer.MIN_VALUE); // Connector/J: stream rows instead of buffering the key map
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          sink.accept(new KeyEntry(rs.getString(1), rs.getInt(2), KeyState.valueOf(rs.getString(3))));
        }
      }
    }
  }
}
