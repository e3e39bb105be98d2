package dev.shardex.directory.placement;

import dev.shardex.directory.Directory;

/**
 * Where a key the key map does not hold would live, for a what-if directory ({@code shardex
 * analyze}): a client opened with one ({@link Directory#openWhatIf}) asks it instead of the key map
 * on a placement-cache miss, so a dry run over a fake placement of N shards never reads or writes a
 * key row. A driver's directory has none, and its routing never reaches this type.
 */
@FunctionalInterface
public interface KeyPlacer {
  /** The shard of {@code canonicalKey} (a Long or a String); the same answer every time it is asked. */
  int shardOf(String keySpace, Object canonicalKey);
}
