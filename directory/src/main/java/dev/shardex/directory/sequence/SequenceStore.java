package dev.shardex.directory.sequence;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.change.ChangeLog;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Global unique ids kept in the directory. A driver takes a block of ids per round trip (the row
 * lock on the sequence row serialises takers), so inserts do not touch the directory per row, and
 * ids stay unique across shards and driver instances. Ids are unique, not gap-free: a block a
 * driver does not use up is lost when it stops.
 */
public final class SequenceStore {
  private final DirectoryStore store;

  public SequenceStore(DirectoryStore store) {
    this.store = store;
  }

  /** Declares that INSERTs into the table which omit the column get the column's next ids. */
  public void declareColumn(String table, String column) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO sequence_columns (table_name, column_name) VALUES (?, ?) ON DUPLICATE KEY UPDATE column_name = VALUES(column_name)")) {
        ps.setString(1, TableDef.normalise(table));
        ps.setString(2, TableDef.normalise(column));
        ps.executeUpdate();
      }
      ChangeLog.append(c, Change.Kind.TABLE, null, null, TableDef.normalise(table));
      return null;
    });
  }

  public String column(String table) throws SQLException {
    List<String> found = store.query("SELECT column_name FROM sequence_columns WHERE table_name = ?",
        ps -> ps.setString(1, table), rs -> rs.getString(1));
    return found.isEmpty() ? null : found.get(0);
  }

  /**
   * Reserves {@code size} ids of the sequence and returns the first. One UPDATE with
   * LAST_INSERT_ID(expr) reads and bumps the row under one exclusive lock (a read-then-update would
   * let two takers share a lock and deadlock on the upgrade).
   */
  public long nextBlock(String sequence, int size) throws SQLException {
    return store.inTransaction(c -> {
      for (int attempt = 0; attempt < 2; attempt++) {
        try (PreparedStatement ps = c.prepareStatement(
            "UPDATE sequences SET next_value = LAST_INSERT_ID(next_value + ?) WHERE name = ?")) {
          ps.setLong(1, size);
          ps.setString(2, sequence);
          if (ps.executeUpdate() == 1) {
            try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT LAST_INSERT_ID()")) {
              rs.next();
              return rs.getLong(1) - size;
            }
          }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO sequences (name, next_value) VALUES (?, 1)")) {
          ps.setString(1, sequence);
          ps.executeUpdate();
        }
      }
      throw ShardexError.DIRECTORY_STATE.exception("sequence " + sequence + " could not be created in the directory");
    });
  }

  /**
   * What moving a sequence past an explicit value did. {@code start > 0}: the sequence jumped past
   * the value and the caller holds the block {@code [start, start + size)}. {@code gapHi >= gapLo}:
   * the ids {@code [gapLo, gapHi]} are never handed out (a jump stepped over them; they never will
   * be: the sequence only grows). {@code change > 0}: the value lay in ids already handed out to
   * some block, so a TABLE change was logged for every client to drop its blocks of the table.
   */
  public record Advance(long start, long change, long gapLo, long gapHi) {}

  /**
   * Moves the sequence past a value present in its column (an explicit id, or the largest id on
   * the shards when a sequence is attached over existing rows); see {@link Advance}. The row is
   * locked by the first read (FOR UPDATE), so two advancers never share a lock to upgrade.
   */
  public Advance advancePast(String sequence, String table, long value, int size) throws SQLException {
    return store.inTransaction(c -> {
      for (int attempt = 0; attempt < 2; attempt++) {
        Long before = current(c, sequence);
        if (before != null) {
          return value >= before ? jump(c, sequence, before, value, size) : below(c, sequence, table, value);
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO sequences (name, next_value) VALUES (?, 1)")) {
          ps.setString(1, sequence);
          ps.executeUpdate();
        }
      }
      throw ShardexError.DIRECTORY_STATE.exception("sequence " + sequence + " could not be created in the directory");
    });
  }

  private static Advance jump(java.sql.Connection c, String sequence, long before, long value, int size) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE sequences SET next_value = ? WHERE name = ?")) {
      ps.setLong(1, value + 1 + size);
      ps.setString(2, sequence);
      ps.executeUpdate();
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO sequence_gaps (name, lo, hi) VALUES (?, ?, ?)")) {
      ps.setString(1, sequence);
      ps.setLong(2, before);
      ps.setLong(3, value);
      ps.executeUpdate();
    }
    return new Advance(value + 1, 0, before, value);
  }

  /** A value below the sequence's next: in a gap no block holds, or in ids handed out to some block. */
  private static Advance below(java.sql.Connection c, String sequence, String table, long value) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT lo, hi FROM sequence_gaps WHERE name = ? AND lo <= ? ORDER BY lo DESC LIMIT 1")) {
      ps.setString(1, sequence);
      ps.setLong(2, value);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && rs.getLong(2) >= value) {
          return new Advance(0, 0, rs.getLong(1), rs.getLong(2));
        }
      }
    }
    return new Advance(0, ChangeLog.append(c, Change.Kind.TABLE, null, null, table), 0, -1);
  }

  /** The sequence's next value, its row locked for this transaction; null when it has none yet. */
  private static Long current(java.sql.Connection c, String sequence) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT next_value FROM sequences WHERE name = ? FOR UPDATE")) {
      ps.setString(1, sequence);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : null;
      }
    }
  }

  /**
   * Attaching a sequence to a column that has rows: the sequence starts after {@code largest}, the
   * largest value on any shard ({@link #largestOnShards}). A sequence already past it stays as it is.
   */
  public void startAfter(String table, String column, long largest) throws SQLException {
    String t = TableDef.normalise(table);
    String sequence = t + "." + TableDef.normalise(column);
    if (largest >= peek(sequence)) {
      advancePast(sequence, t, largest, 0);
    }
  }

  /** The largest value of {@code table.column} on the given shards (0 when they hold none). */
  public static long largestOnShards(String table, String column, java.util.Collection<Integer> shards,
      dev.shardex.directory.move.ShardConnector connector) throws SQLException {
    String sql = "SELECT MAX(" + quote(column) + ") FROM " + quote(table);
    long largest = 0;
    for (int shard : shards) {
      try (java.sql.Connection c = connector.connect(shard); java.sql.Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(sql)) {
        if (rs.next()) {
          largest = Math.max(largest, rs.getLong(1));
        }
      }
    }
    return largest;
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** The sequence's next value, or 1 when it has handed out nothing yet (for tests and the CLI). */
  public long peek(String sequence) throws SQLException {
    List<Long> found = store.query("SELECT next_value FROM sequences WHERE name = ?", ps -> ps.setString(1, sequence),
        rs -> rs.getLong(1));
    return found.isEmpty() ? 1 : found.get(0);
  }
}
