package dev.shardex.directory.move;

import dev.shardex.directory.move.TableShape.Column;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;

/**
 * SHA-256 over rows read in primary-key order. Each value is length-prefixed and NULL has its own
 * marker, so no two different row sequences feed the digest the same bytes.
 */
final class RowDigest {
  private final MessageDigest sha;
  private long rows;

  RowDigest() {
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  void table(String name) {
    value(name.getBytes(StandardCharsets.UTF_8));
  }

  /** Reads the current row (bytes, strings or null, as the shape says), digests it and returns it. */
  Object[] row(ResultSet rs, List<Column> columns) throws SQLException {
    Object[] values = read(rs, columns);
    for (Object v : values) {
      value(bytes(v));
    }
    rows++;
    return values;
  }

  /** Reads the current row without digesting it: byte[] for BYTES columns, String (or null) otherwise. */
  static Object[] read(ResultSet rs, List<Column> columns) throws SQLException {
    Object[] values = new Object[columns.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = columns.get(i).kind() == TableShape.Kind.BYTES ? rs.getBytes(i + 1) : rs.getString(i + 1);
    }
    return values;
  }

  /**
   * SHA-256 of some of a row's values ({@code which} indexes them), with the encoding of the
   * whole-key digest: equal values, equal hashes; different values, different hashes (short of a
   * SHA-256 collision). Used to match rows by primary key and to tell changed rows apart.
   */
  static ByteBuffer hash(Object[] values, int[] which) {
    RowDigest d = SCRATCH.get(); // one per thread: MessageDigest.getInstance per row is costly
    for (int i : which) {
      d.value(bytes(values[i]));
    }
    return ByteBuffer.wrap(d.sha.digest()); // digest() also resets it for the next row
  }

  private static final ThreadLocal<RowDigest> SCRATCH = ThreadLocal.withInitial(RowDigest::new);

  private static byte[] bytes(Object v) {
    return v == null ? null : v instanceof byte[] b ? b : ((String) v).getBytes(StandardCharsets.UTF_8);
  }

  private void value(byte[] bytes) {
    if (bytes == null) {
      sha.update((byte) 0);
      return;
    }
    sha.update((byte) 1);
    int n = bytes.length;
    sha.update(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    sha.update(bytes);
  }

  long rows() {
    return rows;
  }

  Fingerprint finish() {
    return new Fingerprint(rows, HexFormat.of().formatHex(sha.digest()));
  }
}
