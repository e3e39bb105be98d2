package dev.shardex.directory.move;

import dev.shardex.directory.move.TableShape.Column;
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
    Object[] values = new Object[columns.size()];
    for (int i = 0; i < values.length; i++) {
      if (columns.get(i).kind() == TableShape.Kind.BYTES) {
        byte[] b = rs.getBytes(i + 1);
        values[i] = b;
        value(b);
      } else {
        String s = rs.getString(i + 1);
        values[i] = s;
        value(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
      }
    }
    rows++;
    return values;
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
