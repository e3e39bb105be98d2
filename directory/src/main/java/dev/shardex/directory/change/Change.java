package dev.shardex.directory.change;

/** One numbered change to the catalog or the key map, as drivers poll it. */
public record Change(long id, Kind kind, String keySpace, String key, String ref) {
  public enum Kind {
    KEY,
    TABLE,
    SHARD,
    KEYSPACE,
    /** A unique lookup entry was deleted or re-pointed: {@code ref} is the index id, {@code key} the value. */
    LOOKUP
  }
}
