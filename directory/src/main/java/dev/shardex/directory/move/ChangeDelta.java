package dev.shardex.directory.move;

import dev.shardex.vocabulary.KeyType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Brings the destination up to date from the source's change record ({@link ChangeCapture}): the
 * rows recorded as changed are read on both sides by primary key, the destination's are deleted
 * and the source's inserted, in one destination transaction; the records are then consumed. Work
 * in proportion to the rows changed, not to the user's size.
 *
 * <p>What vouches for the result: every row written is read back and compared with the source's
 * ({@link DeltaSync#writtenAsRead}), every row deleted was found, and the key's digest (count and
 * XOR of per-row MD5s, as {@link DeltaSync#quickDigest} computes it) is carried forward: the
 * destination's digest after the pre-copy, minus the rows replaced, plus the rows written. The
 * mover journals that digest and compares it with the source's own, recomputed by the server,
 * before it deletes the source; a change the triggers did not see then stops the move.
 */
final class ChangeDelta {
  private final DeltaSync sync;
  private final int batchSize;

  ChangeDelta(DeltaSync sync, int batchSize) {
    this.sync = sync;
    this.batchSize = batchSize;
  }

  /** What one round did: records consumed, rows deleted and written, and the digest after it (null if not tracked). */
  record Round(int records, long deleted, long written, KeyDigest digest) {}

  /**
   * Applies the oldest {@code limit} changes recorded so far in one source snapshot and one
   * destination transaction;
   * null when a written row did not read back as read (nothing committed: the caller falls back to
   * the full-read delta).
   */
  Round round(Connection src, Connection dst, List<TableShape> shapes, KeyType type, String key, long moveId, KeyDigest digest,
      int limit) throws SQLException {
    KeyCopier.prepare(src);
    KeyCopier.prepare(dst);
    src.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    src.setAutoCommit(false);
    dst.setAutoCommit(false);
    try {
      ChangeCapture.Pending pending = ChangeCapture.read(src, moveId, shapes, limit);
      KeyDigest next = digest == null ? null : digest.copy();
      long deleted = 0;
      long written = 0;
      for (Map.Entry<TableShape, List<Object[]>> e : pending.rows().entrySet()) {
        for (int start = 0; start < e.getValue().size(); start += batchSize) {
          List<Object[]> chunk = e.getValue().subList(start, Math.min(e.getValue().size(), start + batchSize));
          long[] done = apply(src, dst, e.getKey(), type, key, chunk, next);
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

  /** One batch of changed primary keys: returns {deleted, written}, or null when the result did not verify. */
  private long[] apply(Connection src, Connection dst, TableShape shape, KeyType type, String key, List<Object[]> pks,
      KeyDigest digest) throws SQLException {
    List<Long> removed = new ArrayList<>();
    List<Long> added = new ArrayList<>();
    List<Object[]> now = read(src, shape, type, key, pks, added);
    List<Object[]> old = read(dst, shape, type, key, pks, removed);
    if (KeyCopier.deleteRows(dst, shape, type, key, old, batchSize) != old.size()) {
      return null;
    }
    sync.insertRows(dst, shape, now);
    int[] all = new int[shape.columns.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    if (!sync.writtenAsRead(dst, shape, type, key, now, all)) {
      return null;
    }
    if (digest != null) {
      digest.replace(shape.table, removed, added);
    }
    return new long[] {old.size(), now.size()};
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
