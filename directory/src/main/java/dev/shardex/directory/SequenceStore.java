package dev.shardex.directory;

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
      DirectoryStore.logChange(c, Change.Kind.TABLE, null, null, TableDef.normalise(table));
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
}
