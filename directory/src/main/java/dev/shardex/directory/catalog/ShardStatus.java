package dev.shardex.directory.catalog;

/** What a shard accepts: everything, reads only, or nothing. */
public enum ShardStatus {
  ONLINE,
  READ_ONLY,
  OFFLINE;

  public boolean acceptsReads() {
    return this != OFFLINE;
  }

  public boolean acceptsWrites() {
    return this == ONLINE;
  }
}
