package dev.shardex.directory.move;

/** A key's rows across the tables of its key space: how many, and a SHA-256 over them in primary-key order. */
public record Fingerprint(long rows, String checksum) {
  @Override
  public String toString() {
    return rows + " rows, sha256 " + checksum.substring(0, Math.min(12, checksum.length()));
  }
}
