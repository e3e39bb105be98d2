package dev.shardex.directory.move;

import dev.shardex.directory.KeyType;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.move.TableShape.Column;
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

  /**
   * Sessions the mover uses read TIMESTAMPs as text in UTC: both ends then agree on the text
   * whatever each server's time zone is.
   */
  static void prepare(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("SET time_zone = '+00:00'");
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
      long moveId) throws SQLException {
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
        copyTable(src, dst, shape, type, key, read);
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

  void copyTable(Connection src, Connection dst, TableShape shape, KeyType type, String key, RowDigest read)
      throws SQLException {
    try (PreparedStatement select = src.prepareStatement(shape.selectKey(false));
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
          }
        }
      }
      if (pending > 0) {
        insert.executeBatch();
      }
    }
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
      try (PreparedStatement ps = c.prepareStatement(shape.selectKey(false))) {
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

  static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }
}
