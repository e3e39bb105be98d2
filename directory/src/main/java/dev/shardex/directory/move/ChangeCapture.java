package dev.shardex.directory.move;

import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.MysqlError;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The source shard's record of which rows of a moving key changed since the pre-copy, so that the
 * copy under FROZEN reads and writes only those rows, not the whole user on both shards: the
 * frozen window then depends on the writes made during the move, not on the user's size.
 *
 * <p>How: while a move from a shard is under way its key is listed in {@code shardex_moving} and
 * each table of the key space carries three triggers (insert, update, delete) that add the changed
 * row's primary key to {@code shardex_changes}, in the writing transaction. So a record commits if
 * and only if its write does, whoever wrote: writes that bypass Shardex (a plain client on the
 * shard, a batch job) are recorded too. What triggers do not see, and so the record misses:
 * TRUNCATE, rows changed by a foreign key's ON DELETE/UPDATE action, and writes made with the
 * triggers absent (before the capture started). The mover's checks against the source's digest
 * (before deleting the source) catch those and stop the move with both copies kept.
 *
 * <p>Why consuming records is safe: the mover deletes a record only after applying the row's state
 * as read in a snapshot in which that record was visible. A write committed after that snapshot has
 * a later record, still there. Applying a state twice is harmless (delete and insert by primary key).
 *
 * <p>Installing a trigger takes the table's metadata lock on the source shard (waiting at most
 * {@link #LOCK_WAIT_S} s for open transactions on the table); the triggers are dropped when the
 * last move from the shard ends. A source that refuses (no TRIGGER privilege, a server without
 * multiple triggers per event, a table without a primary key of at most 4 columns) is not an error:
 * the move then finds its delta by reading both sides, as before.
 */
final class ChangeCapture {
  static final int LOCK_WAIT_S = 5;
  /**
   * Pause between two trigger statements on one shard. Each CREATE or DROP TRIGGER holds the
   * table's metadata lock exclusively, stalling every writer of that table for its duration (6-52
   * ms each here, measured at load ~11); back to back, a table's three stalls add up to one of
   * 100-300 ms. Apart, each writer waits for one statement at most and the backlog drains between.
   */
  static final long DDL_GAP_MS = 100;
  private static final String LOCK = "shardex_capture";

  /** Records read in one snapshot: their sequence numbers, and the distinct primary keys per table. */
  record Pending(List<Long> seqs, Map<TableShape, List<Object[]>> rows) {}

  private ChangeCapture() {}

  /** Starts recording the key's changes on the source; null when recording, otherwise why not. */
  static String start(Connection src, long moveId, List<TableShape> shapes, String key) throws SQLException {
    for (TableShape shape : shapes) {
      if (!CaptureSql.capturable(shape)) {
        return "table " + shape.table + " has no primary key a record can hold (at most " + CaptureSql.MAX_PK
            + " copied columns, none TIMESTAMP, FLOAT or DOUBLE)";
      }
    }
    src.setAutoCommit(true);
    try {
      locked(src, () -> {
        try (Statement s = src.createStatement()) {
          s.execute(CaptureSql.CREATE_MOVING);
          s.execute(CaptureSql.CREATE_CHANGES);
          s.execute("SET SESSION lock_wait_timeout = " + LOCK_WAIT_S);
        }
        // leftovers of an earlier attempt at this move (the copy that follows reads the rows anew),
        // deleted while no trigger records for it: with its MOVING row in place, writers kept
        // appending its records behind the DELETE, which chased them for 14 minutes in a CI run
        update(src, "DELETE FROM " + CaptureSql.MOVING + " WHERE move_id = ?", moveId);
        update(src, "DELETE FROM " + CaptureSql.CHANGES + " WHERE move_id = ?", moveId);
        update(src, "REPLACE INTO " + CaptureSql.MOVING + " (move_id, k) VALUES (?, ?)", moveId, key);
        for (TableShape shape : shapes) {
          installTriggers(src, shape);
        }
      });
      return null;
    } catch (SQLException e) {
      try {
        stop(src, moveId);
      } catch (SQLException cleanup) {
        e.addSuppressed(cleanup);
      }
      return "shard refused the change capture (" + e.getMessage() + ")";
    }
  }

  /** Stops recording for the move and forgets its records; drops the triggers once no move from the shard is left. */
  static void stop(Connection src, long moveId) throws SQLException {
    src.setAutoCommit(true);
    try {
      locked(src, () -> {
        update(src, "DELETE FROM " + CaptureSql.MOVING + " WHERE move_id = ?", moveId);
        update(src, "DELETE FROM " + CaptureSql.CHANGES + " WHERE move_id = ?", moveId);
        if (count(src, "SELECT COUNT(*) FROM " + CaptureSql.MOVING) == 0) {
          dropTriggers(src);
        }
      });
    } catch (SQLException e) {
      if (ErrorKind.server(e) != MysqlError.NO_SUCH_TABLE) { // never started on this shard: nothing to stop
        throw e;
      }
    }
  }

  /** Whether the move's key is being recorded on this shard. */
  static boolean recording(Connection src, long moveId) throws SQLException {
    try (PreparedStatement ps = src.prepareStatement("SELECT COUNT(*) FROM " + CaptureSql.MOVING + " WHERE move_id = ?")) {
      ps.setLong(1, moveId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0;
      }
    } catch (SQLException e) {
      if (ErrorKind.server(e) == MysqlError.NO_SUCH_TABLE) {
        return false;
      }
      throw e;
    }
  }

  /** The move's records not yet applied. */
  static long pending(Connection src, long moveId) throws SQLException {
    try (PreparedStatement ps = src.prepareStatement("SELECT COUNT(*) FROM " + CaptureSql.CHANGES + " WHERE move_id = ?")) {
      ps.setLong(1, moveId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * The move's oldest {@code limit} records visible in the caller's transaction (its first read
   * fixes the snapshot). Applying a part is safe: the rest stay for a later round.
   */
  static Pending read(Connection src, long moveId, List<TableShape> shapes, int limit) throws SQLException {
    Map<String, TableShape> byName = new LinkedHashMap<>();
    shapes.forEach(s -> byName.put(s.table, s));
    List<Long> seqs = new ArrayList<>();
    Map<TableShape, Map<List<String>, Object[]>> rows = new LinkedHashMap<>();
    try (PreparedStatement ps = src.prepareStatement(
        "SELECT seq, tbl, p1, p2, p3, p4 FROM " + CaptureSql.CHANGES + " WHERE move_id = ? ORDER BY seq LIMIT " + limit)) {
      ps.setLong(1, moveId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          seqs.add(rs.getLong(1));
          TableShape shape = byName.get(rs.getString(2));
          if (shape != null) {
            List<String> pk = new ArrayList<>();
            for (int i = 0; i < shape.primaryKey.length; i++) {
              pk.add(rs.getString(3 + i));
            }
            rows.computeIfAbsent(shape, s -> new LinkedHashMap<>()).computeIfAbsent(pk, p -> row(shape, p));
          }
        }
      }
    }
    Map<TableShape, List<Object[]>> distinct = new LinkedHashMap<>();
    rows.forEach((shape, byPk) -> distinct.put(shape, new ArrayList<>(byPk.values())));
    return new Pending(seqs, distinct);
  }

  /** Deletes applied records, by sequence number, in the caller's transaction. */
  static void consume(Connection src, List<Long> seqs) throws SQLException {
    for (int start = 0; start < seqs.size(); start += KeyPages.PAGE) {
      List<Long> chunk = seqs.subList(start, Math.min(seqs.size(), start + KeyPages.PAGE));
      try (PreparedStatement ps = src.prepareStatement(
          "DELETE FROM " + CaptureSql.CHANGES + " WHERE seq IN (" + KeyPages.marks(chunk.size()) + ")")) {
        for (int i = 0; i < chunk.size(); i++) {
          ps.setLong(i + 1, chunk.get(i));
        }
        ps.executeUpdate();
      }
    }
  }

  /** A row holding only its primary-key values, as the copier's primary-key binders expect. */
  private static Object[] row(TableShape shape, List<String> pk) {
    Object[] row = new Object[shape.columns.size()];
    for (int i = 0; i < pk.size(); i++) {
      int column = shape.primaryKey[i];
      row[column] = CaptureSql.value(shape.columns.get(column), pk.get(i));
    }
    return row;
  }

  private static void installTriggers(Connection src, TableShape shape) throws SQLException {
    List<String> names = CaptureSql.triggerNames(shape);
    List<String> ddl = CaptureSql.createTriggers(shape);
    try (Statement s = src.createStatement()) {
      for (int i = 0; i < names.size(); i++) {
        if (!triggerExists(src, names.get(i))) {
          pauseBetweenDdl(i);
          s.execute(ddl.get(i));
        }
      }
    }
  }

  private static boolean triggerExists(Connection src, String name) throws SQLException {
    try (PreparedStatement ps = src.prepareStatement(
        "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0;
      }
    }
  }

  /** Drops every capture trigger of the shard's schema (all key spaces' tables). */
  private static void dropTriggers(Connection src) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Statement s = src.createStatement(); ResultSet rs = s.executeQuery("SELECT TRIGGER_NAME FROM information_schema.TRIGGERS "
        + "WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'shardex\\_%'")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    try (Statement s = src.createStatement()) {
      s.execute("SET SESSION lock_wait_timeout = " + LOCK_WAIT_S);
      for (int i = 0; i < names.size(); i++) {
        pauseBetweenDdl(i);
        s.execute("DROP TRIGGER IF EXISTS " + TableShape.quote(names.get(i)));
      }
    }
  }

  /** Before every trigger statement but a table's first: see {@link #DDL_GAP_MS}. */
  private static void pauseBetweenDdl(int index) throws SQLException {
    if (index == 0) {
      return;
    }
    try {
      Thread.sleep(DDL_GAP_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ShardexError.DIRECTORY_STATE.withCause(e, "interrupted between the change capture's trigger statements");
    }
  }

  interface Step {
    void run() throws SQLException;
  }

  /** Runs the step under the shard's capture lock, so a move's start and another's trigger drop never interleave. */
  private static void locked(Connection src, Step step) throws SQLException {
    if (count(src, "SELECT GET_LOCK('" + LOCK + "', 30)") != 1) {
      throw ShardexError.CAPTURE_LOCK.exception(src.getMetaData().getURL() == null ? "?" : dev.shardex.directory.Redact.url(src.getMetaData().getURL()));
    }
    try {
      step.run();
    } finally {
      count(src, "SELECT RELEASE_LOCK('" + LOCK + "')");
    }
  }

  private static void update(Connection c, String sql, long moveId, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, moveId);
      ps.setString(2, key);
      ps.executeUpdate();
    }
  }

  private static void update(Connection c, String sql, long moveId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, moveId);
      ps.executeUpdate();
    }
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
