package dev.shardex.cli.analyze;

import dev.shardex.directory.placement.KeyPlacer;

/**
 * The fake placement of a what-if cluster: a key lives on {@code hash(key) mod N}, the same shard
 * every time (so a key seen again routes where it went before) with nothing remembered, so a log of
 * any size is analysed in bounded memory. The hash is mixed (MurmurHash3's finaliser) so
 * consecutive ids spread over the shards as a balanced directory would spread them.
 */
final class HashPlacer implements KeyPlacer {
  private final int shards;

  HashPlacer(int shards) {
    this.shards = shards;
  }

  @Override
  public int shardOf(String keySpace, Object canonicalKey) {
    long h = canonicalKey instanceof Long l ? l : canonicalKey.hashCode();
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) Math.floorMod(h, (long) shards);
  }
}
