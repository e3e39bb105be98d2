package dev.shardex.directory.move;

import dev.shardex.directory.move.TableShape.Column;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads, copies, fingerprints and deletes one key's rows across the SHARDED tables of its key
 * space, on direct shard connections. Copies go in one destination transaction that is verified
 * (count and checksum, read back inside the same transaction) before it commits, so a destination
 * never holds half a key or a copy that differs from its source.
 */
final class KeyCopier {
  private final int batchSize;

  KeyCopier(int batchSize) {
    this.batchSize = batchSize;
  }

  int batchSize() {
    return batchSize;
  }

  /**
   * Sessions the mover uses read TIMESTAMPs as text in UTC: both ends then agree on the text
   * whatever each server's time zone is.
   */
  /** UTC for the server's text of dates; and the mover's own writes are not changes for {@link ChangeCapture} to record. */
  static void prepare(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET time_zone = '+00:00', " + CaptureSql.OFF_ASSIGNMENT);
    }
  }

  static List<TableShape> shapes(Connection c, List<TableDef> tables, int shard) throws SQLException {
    List<TableShape> shapes = new ArrayList<>();
    for (TableDef t : tables) {
      shapes.add(TableShape.load(c, t.name(), t.keyColumn(), shard));
    }
    return shapes;
  }

  /**
   * Copies the key from {@code src} to {@code dst}, first deleting whatever rows the destination
   * has for it (the caller has made sure those can only be an earlier attempt of this move).
   */
  Fingerprint copy(Connection src, int from, Connection dst, int to, List<TableDef> tables, KeyType type, String key,
      long moveId, MovePace pace) throws SQLException {
    prepare(src);
    prepare(dst);
    src.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ); // one snapshot across the tables
    src.setAutoCommit(false);
    dst.setAutoCommit(false);
    try {
      List<TableShape> shapes = shapes(src, tables, from);
      RowDigest read = new RowDigest();
      for (TableShape shape : shapes) {
        // Delete only what is there: a DELETE of absent rows takes a gap lock, and two copies of
        // neighbouring keys into one shard would then deadlock on their INSERTs.
        if (count(dst, List.of(shape), type, key) > 0) {
          delete(dst, shape, type, key);
        }
        read.table(shape.table);
        copyTable(src, dst, shape, type, key, read, pace);
      }
      Fingerprint want = read.finish();
      Fingerprint got = fingerprint(dst, shapes, type, key, false);
      if (!want.equals(got)) {
        throw ShardexError.COPY_MISMATCH.exception(moveId, key, to, from, "source " + want + ", copy " + got, from);
      }
      dst.commit();
      src.commit();
      return want;
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(dst, e);
      rollbackQuietly(src, e);
      throw e;
    }
  }

  void copyTable(Connection src, Connection dst, TableShape shape, KeyType type, String key, RowDigest read, MovePace pace)
      throws SQLException {
    try (PreparedStatement select = streaming(src, shape.selectKey(false));
        PreparedStatement insert = dst.prepareStatement(shape.insert())) {
      TableShape.bindKey(select, 1, type, key);
      int pending = 0;
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          bind(insert, shape.columns, read.row(rs, shape.columns));
          insert.addBatch();
          if (++pending == batchSize) {
            insert.executeBatch();
            pending = 0;
            pace.afterBatch();
          }
        }
      }
      if (pending > 0) {
        insert.executeBatch();
      }
    }
  }

  /**
   * A read of a whole key's rows, streamed row by row (Connector/J's {@code Integer.MIN_VALUE} fetch
   * size) rather than buffered whole: a million-row user buffered took ~200 MB of live heap at once,
   * and the GC pauses of copying it (up to 928 ms, measured by {@code WritePauseBenchmark} at load
   * ~9) stalled every other thread of the process. Nothing else may run on {@code c} until the
   * result is closed; while it streams, Connector/J raises the session's {@code net_write_timeout}
   * to its {@code netTimeoutForStreamingResults} (600 s), so a paced copy is not cut off.
   */
  static PreparedStatement streaming(Connection c, String sql) throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
    ps.setFetchSize(Integer.MIN_VALUE);
    return ps;
  }

  static void bind(PreparedStatement ps, List<Column> columns, Object[] values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      boolean bytes = columns.get(i).kind() == TableShape.Kind.BYTES;
      if (values[i] == null) {
        ps.setNull(i + 1, bytes ? Types.VARBINARY : Types.VARCHAR);
      } else if (bytes) {
        ps.setBytes(i + 1, (byte[]) values[i]);
      } else {
        ps.setString(i + 1, (String) values[i]);
      }
    }
  }

  /** The key's rows on one shard; with {@code forUpdate}, locked until the caller's transaction ends. */
  Fingerprint fingerprint(Connection c, List<TableShape> shapes, KeyType type, String key, boolean forUpdate)
      throws SQLException {
    RowDigest digest = new RowDigest();
    for (TableShape shape : shapes) {
      digest.table(shape.table);
      if (forUpdate) {
        try (PreparedStatement lock = c.prepareStatement(shape.lockKey())) {
          TableShape.bindKey(lock, 1, type, key);
          lock.executeQuery().close();
        }
      }
      // after the lock, a plain read sees the latest committed rows, which the lock keeps still
      try (PreparedStatement ps = streaming(c, shape.selectKey(false))) {
        TableShape.bindKey(ps, 1, type, key);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            digest.row(rs, shape.columns);
          }
        }
      }
    }
    return digest.finish();
  }

  long count(Connection c, List<TableShape> shapes, KeyType type, String key) throws SQLException {
    long total = 0;
    for (TableShape shape : shapes) {
      try (PreparedStatement ps = c.prepareStatement(shape.countKey())) {
        TableShape.bindKey(ps, 1, type, key);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          total += rs.getLong(1);
        }
      }
    }
    return total;
  }

  long delete(Connection c, List<TableShape> shapes, KeyType type, String key) throws SQLException {
    long total = 0;
    for (TableShape shape : shapes) {
      total += delete(c, shape, type, key);
    }
    return total;
  }

  private static long delete(Connection c, TableShape shape, KeyType type, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(shape.deleteKey())) {
      TableShape.bindKey(ps, 1, type, key);
      return ps.executeUpdate();
    }
  }

  /**
   * Locks exactly the key's rows: their primary keys are read without locking, then locked by
   * primary key, so no other key's row is locked whatever plan the key's predicate would get.
   * Returns the primary-key values per table (null for a table without a usable primary key,
   * locked by the key predicate instead). Run in READ COMMITTED: later plain reads see the latest
   * rows, which the locks keep still.
   */
  java.util.Map<TableShape, List<Object[]>> lockRows(Connection c, List<TableShape> shapes, KeyType type, String key)
      throws SQLException {
    java.util.Map<TableShape, List<Object[]>> locked = new java.util.LinkedHashMap<>();
    for (TableShape shape : shapes) {
      if (shape.primaryKey == null) {
        try (PreparedStatement lock = c.prepareStatement(shape.lockKey())) {
          TableShape.bindKey(lock, 1, type, key);
          lock.executeQuery().close();
        }
        locked.put(shape, null);
        continue;
      }
      List<Object[]> keys = primaryKeys(c, shape, type, key, shape.selectPrimaryKeys());
      long found = 0;
      for (int start = 0; start < keys.size(); start += batchSize) {
        List<Object[]> chunk = keys.subList(start, Math.min(keys.size(), start + batchSize));
        try (PreparedStatement lock = c.prepareStatement(shape.lockRows(chunk.size()))) {
          bindPrimaryKeys(lock, shape, type, key, chunk);
          try (ResultSet rs = lock.executeQuery()) {
            while (rs.next()) {
              found++;
            }
          }
        }
      }
      if (found != keys.size()) {
        // a primary key that does not match as bound (e.g. a FLOAT): lock the table's rows by the
        // key predicate instead, and delete them so (the caller checks the count deleted)
        try (PreparedStatement lock = c.prepareStatement(shape.lockKey())) {
          TableShape.bindKey(lock, 1, type, key);
          lock.executeQuery().close();
        }
        keys = null;
      }
      locked.put(shape, keys);
    }
    return locked;
  }

  /** Deletes what {@link #lockRows} locked, row by row by primary key; returns the rows deleted. */
  long deleteLocked(Connection c, java.util.Map<TableShape, List<Object[]>> locked, KeyType type, String key)
      throws SQLException {
    long total = 0;
    for (java.util.Map.Entry<TableShape, List<Object[]>> e : locked.entrySet()) {
      TableShape shape = e.getKey();
      List<Object[]> rows = e.getValue();
      if (rows == null) {
        total += delete(c, shape, type, key);
        continue;
      }
      try (PreparedStatement ps = c.prepareStatement(shape.deleteOneRow())) {
        for (int i = 0; i < rows.size(); i++) {
          bindPrimaryKeys(ps, 1, shape, List.<Object[]>of(rows.get(i)));
          ps.addBatch();
          if ((i + 1) % batchSize == 0 || i == rows.size() - 1) {
            for (int n : ps.executeBatch()) {
              total += n;
            }
          }
        }
      }
    }
    return total;
  }

  /**
   * The key's primary-key values read by {@code sql} (a plain read of {@link TableShape#selectPrimaryKeys},
   * perhaps limited), each as a row holding only those values, as the primary-key binders expect.
   */
  static List<Object[]> primaryKeys(Connection c, TableShape shape, KeyType type, String key, String sql) throws SQLException {
    return primaryKeys(c, shape, type, key, sql, null);
  }

  /** The same, {@code sql} taking a second parameter: the single-column primary key to read after (null: none). */
  static List<Object[]> primaryKeys(Connection c, TableShape shape, KeyType type, String key, String sql, Object after)
      throws SQLException {
    List<Object[]> keys = new ArrayList<>();
    List<Column> pkColumns = java.util.Arrays.stream(shape.primaryKey).mapToObj(shape.columns::get).toList();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      TableShape.bindKey(ps, 1, type, key);
      if (after != null) {
        shape.bindPrimaryKey(ps, 2, shape.primaryKey[0], after);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.add(primaryKeyRow(rs, shape, pkColumns));
        }
      }
    }
    return keys;
  }

  /** The current row's first columns, the primary key's ({@code pkColumns}), as a row holding only those values. */
  static Object[] primaryKeyRow(ResultSet rs, TableShape shape, List<Column> pkColumns) throws SQLException {
    Object[] pk = RowDigest.read(rs, pkColumns);
    Object[] row = new Object[shape.columns.size()];
    for (int i = 0; i < pk.length; i++) {
      row[shape.primaryKey[i]] = pk[i];
    }
    return row;
  }

  /** Deletes rows of the key by primary key, a batch per statement; returns how many were found and deleted. */
  static long deleteRows(Connection c, TableShape shape, KeyType type, String key, List<Object[]> rows, int batchSize)
      throws SQLException {
    long deleted = 0;
    for (int start = 0; start < rows.size(); start += batchSize) {
      List<Object[]> chunk = rows.subList(start, Math.min(rows.size(), start + batchSize));
      try (PreparedStatement ps = c.prepareStatement(shape.deleteRows(chunk.size()))) {
        bindPrimaryKeys(ps, shape, type, key, chunk);
        deleted += ps.executeUpdate();
      }
    }
    return deleted;
  }

  static void bindPrimaryKeys(PreparedStatement ps, TableShape shape, KeyType type, String key, List<Object[]> rows)
      throws SQLException {
    TableShape.bindKey(ps, 1, type, key);
    bindPrimaryKeys(ps, 2, shape, rows);
  }

  private static void bindPrimaryKeys(PreparedStatement ps, int first, TableShape shape, List<Object[]> rows)
      throws SQLException {
    int index = first;
    for (Object[] row : rows) {
      for (int column : shape.primaryKey) {
        shape.bindPrimaryKey(ps, index++, column, row[column]);
      }
    }
  }

  static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }
}
