package dev.shardex.vocabulary;

/** How a logical table is laid out across the shards. */
public enum TableKind {
  /** Rows spread by a key column; each key's rows live on the shard the key map names. */
  SHARDED,
  /** A full copy on every shard: writes go everywhere, reads to one. */
  GLOBAL,
  /** Lives on one home shard only. */
  SINGLE
}
