package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code moves} table: one row per move, its step, and what the step needs to resume. Steps
 * are written inside the caller's transaction where the step is itself a directory change, so
 * the journal and the key map can never disagree about a freeze or a flip.
 */
public final class MoveJournal {
  private static final String COLUMNS =
      "id, keyspace, k, from_shard, to_shard, step, detail, change_id, row_count, checksum, started_at, updated_at";
  private static final String UNFINISHED = "step NOT IN ('DONE', 'ABORTED', 'STOPPED')";

  private final DirectoryStore store;

  public MoveJournal(DirectoryStore store) {
    this.store = store;
  }

  /** Journals a new move, refused while another move of the same key is unfinished. */
  public long begin(String keySpace, String key, int from, int to) throws SQLException {
    return store.inTransaction(c -> {
      // The key's key-map row lock serialises moves of one key. Not FOR UPDATE on moves: its gap
      // locks would make two moves of different keys deadlock on their INSERTs.
      store.lockKey(c, keySpace, key);
      refuseIfUnfinished(c, keySpace, key, "");
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO moves (keyspace, k, from_shard, to_shard, step, detail) VALUES (?, ?, ?, ?, 'PLANNED', 'planned')",
          Statement.RETURN_GENERATED_KEYS)) {
        ps.setString(1, keySpace);
        ps.setString(2, key);
        ps.setInt(3, from);
        ps.setInt(4, to);
        ps.executeUpdate();
        try (ResultSet rs = ps.getGeneratedKeys()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    });
  }

  /** Refuses (MOVE_REFUSED) when a move of the key is unfinished: it must be resumed or aborted first. */
  public void refuseIfUnfinished(String keySpace, String key) throws SQLException {
    try (Connection c = store.dataSource().getConnection()) {
      refuseIfUnfinished(c, keySpace, key, "");
    }
  }

  private static void refuseIfUnfinished(Connection c, String keySpace, String key, String lock) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT id, step FROM moves WHERE keyspace = ? AND k = ? AND " + UNFINISHED + lock)) {
      ps.setString(1, keySpace);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          long id = rs.getLong(1);
          throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "move " + id + " of it is unfinished (step "
              + rs.getString(2) + "); finish it with 'shardex moves resume " + id + "' or 'shardex moves abort " + id + "'");
        }
      }
    }
  }

  /** Records that {@code step} is done, in the caller's transaction; null values leave a column as it is. */
  public void advance(Connection c, long id, MoveStep step, Long changeId, Fingerprint copy, String detail)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE moves SET step = ?, detail = ?, updated_at = CURRENT_TIMESTAMP(6), "
        + "change_id = COALESCE(?, change_id), row_count = COALESCE(?, row_count), checksum = COALESCE(?, checksum) "
        + "WHERE id = ?")) {
      ps.setString(1, step.name());
      ps.setString(2, detail);
      ps.setObject(3, changeId);
      ps.setObject(4, copy == null ? null : copy.rows());
      ps.setString(5, copy == null ? null : copy.checksum());
      ps.setLong(6, id);
      ps.executeUpdate();
    }
  }

  public void advance(long id, MoveStep step, Fingerprint copy, String detail) throws SQLException {
    store.inTransaction(c -> {
      advance(c, id, step, null, copy, detail);
      return null;
    });
  }

  /** Notes why an unfinished move stopped (it stays at its step, for resume). */
  public void note(long id, String detail) throws SQLException {
    try (Connection c = store.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("UPDATE moves SET detail = ?, updated_at = CURRENT_TIMESTAMP(6) WHERE id = ?")) {
      ps.setString(1, detail.length() > 2000 ? detail.substring(0, 2000) : detail);
      ps.setLong(2, id);
      ps.executeUpdate();
    }
  }

  public MoveRecord get(long id) throws SQLException {
    List<MoveRecord> found = select("SELECT " + COLUMNS + " FROM moves WHERE id = ?", id);
    if (found.isEmpty()) {
      throw ShardexError.UNKNOWN_MOVE.exception("there is no move " + id + "; 'shardex moves list' shows the journal");
    }
    return found.get(0);
  }

  /** Newest first; {@code unfinishedOnly} keeps the moves that need a resume or an abort. */
  public List<MoveRecord> list(boolean unfinishedOnly, int limit) throws SQLException {
    String where = unfinishedOnly ? " WHERE " + UNFINISHED : "";
    return select("SELECT " + COLUMNS + " FROM moves" + where + " ORDER BY id DESC LIMIT " + Math.max(1, limit));
  }

  /** Keys of a key space with an unfinished move: their rows may legitimately sit on two shards. */
  public List<String> movingKeys(String keySpace) throws SQLException {
    List<String> keys = new ArrayList<>();
    try (Connection c = store.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT k FROM moves WHERE keyspace = ? AND " + UNFINISHED)) {
      ps.setString(1, keySpace);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.add(rs.getString(1));
        }
      }
    }
    return keys;
  }

  private List<MoveRecord> select(String sql, Object... args) throws SQLException {
    try (Connection c = store.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        List<MoveRecord> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(record(rs));
        }
        return rows;
      }
    }
  }

  private static MoveRecord record(ResultSet rs) throws SQLException {
    long change = rs.getLong(8);
    Long changeId = rs.wasNull() ? null : change;
    long count = rs.getLong(9);
    Long rowCount = rs.wasNull() ? null : count;
    return new MoveRecord(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5),
        MoveStep.valueOf(rs.getString(6)), rs.getString(7), changeId, rowCount, rs.getString(10),
        instant(rs.getTimestamp(11)), instant(rs.getTimestamp(12)));
  }

  private static java.time.Instant instant(Timestamp t) {
    return t == null ? null : t.toInstant();
  }
}
