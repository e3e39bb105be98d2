package dev.shardex.directory.move;

import dev.shardex.vocabulary.KeyType;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings the destination's copy of a key up to date with the source by writing only the rows that
 * differ: the copy under FROZEN after a pre-copy made while the key was still ACTIVE.
 *
 * <p>Why it is safe: until the flip nobody reads the destination's rows of the key (every driver
 * routes it to the source), and they are all this move's (the journal says so, PRECOPYING or
 * COPYING). So the delta may rewrite them freely; what makes the result trustworthy is the check
 * before the destination transaction commits, the same as a full copy's: the destination, read
 * back inside that transaction, has exactly the source's row count and SHA-256 over the rows in
 * primary-key order. If it has not (a difference the delta cannot express, e.g. two primary keys a
 * collation deems equal), nothing is committed and {@link #sync} returns null: the caller falls
 * back to the full copy.
 *
 * <p>How: per table, the key's rows are read on both sides in primary-key order and matched by
 * primary key (a hash of its values), comparing a hash of each whole row. Both sides come in the
 * same order, so only the rows not matched yet are held, and what is held at the end is the delta.
 * Rows gone from the source or changed are deleted on the destination by primary key, then changed
 * and new rows are inserted: deleting first means no insert can collide with a stale row. Tables
 * without a usable primary key are replaced whole.
 */
final class DeltaSync {
  private final KeyCopier copier;
  private final int batchSize;

  DeltaSync(KeyCopier copier, int batchSize) {
    this.copier = copier;
    this.batchSize = batchSize;
  }

  /** Rows written by one sync, for the journal's detail. */
  record Delta(long deleted, long inserted, long unchanged) {
    Delta plus(Delta d) {
      return new Delta(deleted + d.deleted, inserted + d.inserted, unchanged + d.unchanged);
    }

    @Override
    public String toString() {
      return unchanged + " row(s) unchanged, " + deleted + " deleted, " + inserted + " inserted";
    }
  }

  /**
   * What one sync did: the verified fingerprint, or null when it committed nothing (fall back to a
   * full copy); and the source's {@link #quickDigest} in the same snapshot.
   */
  record Result(Fingerprint copied, Delta delta, String sourceDigest) {}

  /**
   * Makes the destination's rows of the key equal to the source's, in one destination transaction
   * verified before it commits; reads the source in one REPEATABLE READ snapshot.
   */
  Result sync(Connection src, Connection dst, List<TableShape> srcShapes, KeyType type, String key)
      throws SQLException {
    KeyCopier.prepare(src);
    KeyCopier.prepare(dst);
    src.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    src.setAutoCommit(false);
    dst.setAutoCommit(false);
    try {
      RowDigest source = new RowDigest();
      Delta delta = new Delta(0, 0, 0);
      for (TableShape shape : srcShapes) {
        source.table(shape.table);
        Delta d = shape.primaryKey == null ? replace(src, dst, shape, type, key, source)
            : syncTable(src, dst, shape, type, key, source);
        if (d == null) {
          return giveUp(src, dst, delta);
        }
        delta = delta.plus(d);
      }
      Fingerprint want = source.finish();
      if (!verified(dst, srcShapes, type, key, want)) {
        return giveUp(src, dst, delta);
      }
      String digest = quickDigest(src, srcShapes, type, key);
      dst.commit();
      src.commit();
      return new Result(want, delta, digest);
    } catch (SQLException | RuntimeException e) {
      KeyCopier.rollbackQuietly(dst, e);
      KeyCopier.rollbackQuietly(src, e);
      throw e;
    }
  }

  /** Commits nothing: the caller falls back to the full copy. */
  private static Result giveUp(Connection src, Connection dst, Delta soFar) throws SQLException {
    dst.rollback();
    src.rollback();
    return new Result(null, soFar, null);
  }

  /**
   * Whether the destination, inside the sync's transaction, is the source's image. Every row the
   * sync left alone matched its source row by primary key and whole-row hash, read in this very
   * transaction, and every delete found its row; so what is left to check is what the server made
   * of the rows written (each re-read by primary key and compared, see {@link #syncTable}) and that
   * nothing else is there: the key's row count. That keeps the check, done under FROZEN, in
   * proportion to the delta, not to the key's size. A table without a primary key was replaced
   * whole: then the whole key is re-read and fingerprinted, as a full copy is.
   */
  private boolean verified(Connection dst, List<TableShape> shapes, KeyType type, String key, Fingerprint want)
      throws SQLException {
    if (shapes.stream().anyMatch(s -> s.primaryKey == null)) {
      return want.equals(copier.fingerprint(dst, shapes, type, key, false));
    }
    return copier.count(dst, shapes, type, key) == want.rows();
  }

  /**
   * A digest of the key's rows computed by the server (count and a 64-bit XOR of per-row MD5s):
   * cheap to take again under FROZEN, to check the source did not change behind Shardex's back
   * between the copy and the flip.
   */
  static String quickDigest(Connection c, List<TableShape> shapes, KeyType type, String key) throws SQLException {
    StringBuilder digest = new StringBuilder();
    for (TableShape shape : shapes) {
      try (PreparedStatement ps = c.prepareStatement(shape.digestKey())) {
        TableShape.bindKey(ps, 1, type, key);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          digest.append(shape.table).append(':').append(rs.getLong(1)).append('/').append(rs.getString(2)).append(' ');
        }
      }
    }
    return digest.toString().trim();
  }

  /** Runs the destination's read beside the source's (daemon threads, created as needed). */
  static final java.util.concurrent.Executor READER = java.util.concurrent.Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "shardex-mover-read");
    t.setDaemon(true);
    return t;
  });

  /** The result of a read run on {@link #READER}, its SQLException rethrown as such. */
  static <T> T joined(java.util.concurrent.CompletableFuture<T> read) throws SQLException {
    try {
      return read.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql;
      }
      throw e;
    }
  }

  /** A row read on one side and not matched on the other yet. */
  private record Pending(ByteBuffer rowHash, Object[] values) {}

  private Delta syncTable(Connection src, Connection dst, TableShape shape, KeyType type, String key, RowDigest source)
      throws SQLException {
    int[] all = allColumns(shape);
    Map<ByteBuffer, Pending> onlySource = new LinkedHashMap<>(); // keeps the source's order for the inserts
    Map<ByteBuffer, Pending> onlyDest = new LinkedHashMap<>();
    List<Object[]> changed = new ArrayList<>();
    long unchanged = 0;
    try (PreparedStatement a = src.prepareStatement(shape.selectKey(false));
        PreparedStatement b = dst.prepareStatement(shape.selectKey(false))) {
      TableShape.bindKey(a, 1, type, key);
      TableShape.bindKey(b, 1, type, key);
      // Both sides run at once: under FROZEN the two reads are most of the key's write pause.
      java.util.concurrent.CompletableFuture<ResultSet> destination = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return b.executeQuery();
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      }, READER);
      try (ResultSet ra = a.executeQuery(); ResultSet rb = joined(destination)) {
        boolean moreA = true;
        boolean moreB = true;
        // Lockstep: one row from each side in turn; equal rows in step are unchanged, others are
        // matched against what the other side left unmatched, so the maps hold about the delta only.
        while (moreA || moreB) {
          Object[] rowA = moreA && (moreA = ra.next()) ? source.row(ra, shape.columns) : null;
          Object[] rowB = moreB && (moreB = rb.next()) ? RowDigest.read(rb, shape.columns) : null;
          if (rowA != null && rowB != null && java.util.Arrays.deepEquals(rowA, rowB)) {
            unchanged++; // the common case, in step on both sides: no hashing (primary keys are unique per side)
            continue;
          }
          if (rowA != null) {
            Object[] row = rowA;
            ByteBuffer pk = RowDigest.hash(row, shape.primaryKey);
            ByteBuffer hash = RowDigest.hash(row, all);
            Pending other = onlyDest.remove(pk);
            if (other == null) {
              onlySource.put(pk, new Pending(hash, row));
            } else if (other.rowHash.equals(hash)) {
              unchanged++;
            } else {
              changed.add(row);
            }
          }
          if (rowB != null) {
            Object[] row = rowB;
            ByteBuffer pk = RowDigest.hash(row, shape.primaryKey);
            ByteBuffer hash = RowDigest.hash(row, all);
            Pending other = onlySource.get(pk);
            if (other == null) {
              onlyDest.put(pk, new Pending(hash, row));
            } else {
              onlySource.remove(pk);
              if (other.rowHash.equals(hash)) {
                unchanged++;
              } else {
                changed.add(other.values);
              }
            }
          }
        }
      }
    }
    List<Object[]> deletes = new ArrayList<>(changed);
    onlyDest.values().forEach(p -> deletes.add(p.values));
    List<Object[]> inserts = new ArrayList<>(changed);
    onlySource.values().forEach(p -> inserts.add(p.values));
    // A delete that found no row means the primary key did not match as bound (e.g. a FLOAT):
    // inserting would then collide or duplicate, so give up before writing more.
    if (KeyCopier.deleteRows(dst, shape, type, key, deletes, batchSize) != deletes.size()) {
      return null;
    }
    insertRows(dst, shape, inserts);
    if (!writtenAsRead(dst, shape, type, key, inserts, all)) {
      return null;
    }
    return new Delta(deletes.size(), inserts.size(), unchanged);
  }

  /** A table whose rows cannot be matched by primary key: the destination's rows of the key are replaced. */
  private Delta replace(Connection src, Connection dst, TableShape shape, KeyType type, String key, RowDigest source)
      throws SQLException {
    long deleted = copier.count(dst, List.of(shape), type, key) > 0 ? copier.delete(dst, List.of(shape), type, key) : 0;
    long before = source.rows();
    copier.copyTable(src, dst, shape, type, key, source, MovePace.FULL_SPEED);
    return new Delta(deleted, source.rows() - before, 0);
  }

  /** Re-reads the rows just written, by primary key: each must be there once, exactly as read on the source. */
  boolean writtenAsRead(Connection dst, TableShape shape, KeyType type, String key, List<Object[]> rows, int[] all)
      throws SQLException {
    Map<ByteBuffer, ByteBuffer> want = new java.util.HashMap<>();
    for (Object[] row : rows) {
      want.put(RowDigest.hash(row, shape.primaryKey), RowDigest.hash(row, all));
    }
    for (int start = 0; start < rows.size(); start += batchSize) {
      List<Object[]> chunk = rows.subList(start, Math.min(rows.size(), start + batchSize));
      try (PreparedStatement ps = dst.prepareStatement(shape.selectRows(chunk.size()))) {
        KeyCopier.bindPrimaryKeys(ps, shape, type, key, chunk);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            Object[] row = RowDigest.read(rs, shape.columns);
            if (!RowDigest.hash(row, all).equals(want.remove(RowDigest.hash(row, shape.primaryKey)))) {
              return false;
            }
          }
        }
      }
    }
    return want.isEmpty();
  }

  /** The indexes of every copied column, for {@link RowDigest#hash} of whole rows. */
  static int[] allColumns(TableShape shape) {
    int[] all = new int[shape.columns.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = i;
    }
    return all;
  }

  void insertRows(Connection dst, TableShape shape, List<Object[]> rows) throws SQLException {
    insertRows(dst, shape, rows, batchSize);
  }

  /** Inserts the rows, {@code batch} per executed batch (one multi-row INSERT where the connection rewrites batches). */
  static void insertRows(Connection dst, TableShape shape, List<Object[]> rows, int batch) throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = dst.prepareStatement(shape.insert())) {
      int pending = 0;
      for (Object[] row : rows) {
        KeyCopier.bind(ps, shape.columns, row);
        ps.addBatch();
        if (++pending == batch) {
          ps.executeBatch();
          pending = 0;
        }
      }
      if (pending > 0) {
        ps.executeBatch();
      }
    }
  }
}
