package dev.shardex.driver.sql;

/**
 * What the route stage found about a read's window functions, for the merge rewrite: {@code onShards}
 * when each is partitioned by a shard key (so each partition lives on one shard and every shard
 * computes them exactly); {@code keys}, the SHARDED tables' key columns ("posts.user_id"), to name
 * in the refusal of any other window.
 */
public record WindowRule(boolean onShards, String keys) {
  /** A read without window functions (or one whose windows the shards may not compute). */
  public static final WindowRule NONE = new WindowRule(false, "");
}
