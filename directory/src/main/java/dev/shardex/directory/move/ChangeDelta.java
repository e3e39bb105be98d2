package dev.shardex.directory.move;

import dev.shardex.vocabulary.KeyType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Brings the destination up to date from the source's change record ({@link ChangeCapture}): the
 * rows recorded as changed are read on the source (whole, with each row's digest share) and, at the
 * same time, on the destination (primary key and digest share only); the destination's are deleted
 * and the source's inserted, in one destination transaction; the records are then consumed. Work
 * in proportion to the rows changed, not to the user's size: three or four statements per
 * {@link #CHUNK} recorded rows (read both sides at once, delete the rows found, insert), one more
 * where each written row is read back.
 *
 * <p>What vouches for the result: the key's digest (count and XOR of per-row MD5s, as {@link
 * DeltaSync#quickDigest} computes it) is carried forward: the destination's digest before the
 * round, minus the shares of the rows deleted, plus the source's shares of the rows written; and
 * every row deleted was found. Where the rows are not read back (the catch-up while the key is
 * ACTIVE), the caller compares the carried digest with the destination's own, recomputed by the
 * server, before the freeze ({@link CapturedCopy#catchUp}); a row the destination did not store as
 * read then shows, and the move reads both sides in full instead. Under FROZEN every written row is
 * read back and compared with the source's ({@link DeltaSync#writtenAsRead}). The mover journals
 * the digest and compares it with the source's own before it deletes the source; a change the
 * triggers did not see then stops the move.
 */
final class ChangeDelta {
  /** Recorded rows per statement (bind parameters: 1 + 4 x 2,000 at most, far below the 65,535 allowed). */
  static final int CHUNK = 2_000;

  private final DeltaSync sync;

  ChangeDelta(DeltaSync sync) {
    this.sync = sync;
  }

  /** What one round did: records consumed, rows deleted and written, and the digest after it. */
  record Round(int records, long deleted, long written, KeyDigest digest) {}

  /**
   * Applies the oldest {@code limit} changes recorded so far in one source snapshot and one
   * destination transaction, carrying {@code digest} forward; with {@code readBack}, every written
   * row is read back. Null when a row deleted was not found, or one written did not read back as
   * read (nothing committed: the caller falls back to the full-read delta).
   */
  Round round(Connection src, Connection dst, List<TableShape> shapes, KeyType type, String key, long moveId, KeyDigest digest,
      int limit, boolean readBack) throws SQLException {
    KeyCopier.prepare(src);
    KeyCopier.prepare(dst);
    src.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    src.setAutoCommit(false);
    dst.setAutoCommit(false);
    try {
      ChangeCapture.Pending pending = ChangeCapture.read(src, moveId, shapes, limit);
      KeyDigest next = digest.copy();
      long deleted = 0;
      long written = 0;
      for (Map.Entry<TableShape, List<Object[]>> e : pending.rows().entrySet()) {
        for (int start = 0; start < e.getValue().size(); start += CHUNK) {
          List<Object[]> chunk = e.getValue().subList(start, Math.min(e.getValue().size(), start + CHUNK));
          long[] done = apply(src, dst, e.getKey(), type, key, chunk, next, readBack);
          if (done == null) {
            dst.rollback();
            src.rollback();
            return null;
          }
          deleted += done[0];
          written += done[1];
        }
      }
      dst.commit();
      src.commit();
      // After the destination holds what they stood for, and outside the snapshot: in READ COMMITTED
      // and short transactions the deletes lock only the records, never the gap the writers'
      // triggers insert into (a locked gap would hold every write of the key for the whole round).
      src.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      src.setAutoCommit(true);
      ChangeCapture.consume(src, pending.seqs());
      return new Round(pending.seqs().size(), deleted, written, next);
    } catch (SQLException | RuntimeException e) {
      KeyCopier.rollbackQuietly(dst, e);
      KeyCopier.rollbackQuietly(src, e);
      throw e;
    }
  }

  /** One chunk of changed primary keys: returns {deleted, written}, or null when the result did not verify. */
  private long[] apply(Connection src, Connection dst, TableShape shape, KeyType type, String key, List<Object[]> pks,
      KeyDigest digest, boolean readBack) throws SQLException {
    List<Long> removed = new ArrayList<>();
    List<Long> added = new ArrayList<>();
    CompletableFuture<List<Object[]>> onDestination = CompletableFuture.supplyAsync(() -> {
      try {
        return shares(dst, shape, type, key, pks, removed);
      } catch (SQLException e) {
        throw new CompletionException(e);
      }
    }, DeltaSync.READER);
    List<Object[]> now;
    try {
      now = read(src, shape, type, key, pks, added);
    } catch (SQLException | RuntimeException e) {
      onDestination.handle((rows, failure) -> null).join(); // the destination's read ends before the caller rolls back
      throw e;
    }
    List<Object[]> old = DeltaSync.joined(onDestination);
    if (KeyCopier.deleteRows(dst, shape, type, key, old, CHUNK) != old.size()) {
      return null;
    }
    DeltaSync.insertRows(dst, shape, now, CHUNK);
    if (readBack && !sync.writtenAsRead(dst, shape, type, key, now, DeltaSync.allColumns(shape))) {
      return null;
    }
    digest.replace(shape.table, removed, added);
    return new long[] {old.size(), now.size()};
  }

  /** The primary keys of the key's rows among {@code pks} that are there, and each row's digest share into {@code md5s}. */
  private static List<Object[]> shares(Connection c, TableShape shape, KeyType type, String key, List<Object[]> pks,
      List<Long> md5s) throws SQLException {
    List<Object[]> found = new ArrayList<>();
    List<TableShape.Column> pkColumns = Arrays.stream(shape.primaryKey).mapToObj(shape.columns::get).toList();
    try (PreparedStatement ps = c.prepareStatement(shape.selectSharesByPrimaryKey(pks.size()))) {
      KeyCopier.bindPrimaryKeys(ps, shape, type, key, pks);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.add(KeyCopier.primaryKeyRow(rs, shape, pkColumns));
          md5s.add(Long.parseUnsignedLong(rs.getString(pkColumns.size() + 1)));
        }
      }
    }
    return found;
  }

  /** The key's rows with these primary keys, and each row's digest share into {@code md5s}. */
  private static List<Object[]> read(Connection c, TableShape shape, KeyType type, String key, List<Object[]> pks,
      List<Long> md5s) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(shape.selectRowsDigested(pks.size()))) {
      KeyCopier.bindPrimaryKeys(ps, shape, type, key, pks);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(RowDigest.read(rs, shape.columns));
          md5s.add(Long.parseUnsignedLong(rs.getString(shape.columns.size() + 1)));
        }
      }
    }
    return rows;
  }
}
