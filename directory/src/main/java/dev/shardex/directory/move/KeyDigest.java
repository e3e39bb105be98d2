package dev.shardex.directory.move;

import dev.shardex.vocabulary.KeyType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A key's rows as the server digests them, per table: the row count and a 64-bit XOR of per-row
 * MD5s ({@link TableShape#digestKey}). XOR makes it updatable row by row: replacing a row takes
 * its old share out and puts the new one in, so the mover can carry the digest through a delta
 * without reading the whole key. Journaled as a {@link Fingerprint} whose checksum starts with
 * {@link #PREFIX} (a SHA-256 over the per-table values, cut to fit the journal's column).
 */
final class KeyDigest {
  static final String PREFIX = "x:";

  private final Map<String, long[]> tables; // table -> {rows, xor}

  private KeyDigest(Map<String, long[]> tables) {
    this.tables = tables;
  }

  /** The server's digest of the key's rows on one shard, in the caller's transaction. */
  static KeyDigest of(Connection c, List<TableShape> shapes, KeyType type, String key) throws SQLException {
    Map<String, long[]> tables = new LinkedHashMap<>();
    for (TableShape shape : shapes) {
      try (PreparedStatement ps = c.prepareStatement(shape.digestKey())) {
        TableShape.bindKey(ps, 1, type, key);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          tables.put(shape.table, new long[] {rs.getLong(1), Long.parseUnsignedLong(rs.getString(2))});
        }
      }
    }
    return new KeyDigest(tables);
  }

  /** Whether a journaled fingerprint is a digest of this kind (else it is a full SHA-256 over the rows). */
  static boolean isDigest(Fingerprint f) {
    return f != null && f.checksum().startsWith(PREFIX);
  }

  KeyDigest copy() {
    Map<String, long[]> copy = new LinkedHashMap<>();
    tables.forEach((t, v) -> copy.put(t, v.clone()));
    return new KeyDigest(copy);
  }

  /** Takes rows out of one table's digest and puts others in (their per-row shares). */
  void replace(String table, List<Long> removed, List<Long> added) {
    long[] v = tables.computeIfAbsent(table, t -> new long[2]);
    for (long share : removed) {
      v[0]--;
      v[1] ^= share;
    }
    for (long share : added) {
      v[0]++;
      v[1] ^= share;
    }
  }

  Fingerprint fingerprint() {
    StringBuilder text = new StringBuilder();
    long rows = 0;
    for (Map.Entry<String, long[]> e : tables.entrySet()) {
      text.append(e.getKey()).append('\0').append(e.getValue()[0]).append('\0').append(Long.toUnsignedString(e.getValue()[1])).append('\0');
      rows += e.getValue()[0];
    }
    try {
      byte[] sha = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
      return new Fingerprint(rows, PREFIX + HexFormat.of().formatHex(sha).substring(0, 62));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
