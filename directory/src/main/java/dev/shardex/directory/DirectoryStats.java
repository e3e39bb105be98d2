package dev.shardex.directory;

/**
 * What a directory client can tell about itself at one moment, for telemetry.
 *
 * @param keys the key-placement caches (hits and misses count only with {@code recordStats})
 * @param leaseAgeMillis milliseconds since the last successful poll began; writes stop at shardex.leaseMs
 * @param appliedChange the last change-log entry this client applied
 * @param keysMoving keys a move has under way that this client knows of (their rows are hidden on one shard)
 */
public record DirectoryStats(Keys keys, long leaseAgeMillis, long appliedChange, int keysMoving) {
  public record Keys(long hits, long misses, long size) {}
}
