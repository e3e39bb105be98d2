package dev.shardex.directory;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shardex.directory.lookup.ClaimPool;

/**
 * How a driver instance uses the directory. {@code ticker} is the clock of the lease, injected so
 * tests can move time without sleeping; {@code autoPoll=false} leaves polling to the caller;
 * {@code claimPoolSize} bounds the connections that hold lookup claims (see {@link ClaimPool});
 * {@code recordStats} makes the key caches count hits and misses (for telemetry; off, they count nothing).
 */
public record DirectoryOptions(
    long pollMs, long leaseMs, long frozenWaitMs, long cacheSize, Ticker ticker, boolean autoPoll, int claimPoolSize,
    boolean recordStats) {

  /** The claims pool's size when none is given: the shard pools' default. */
  public static final int CLAIM_POOL_SIZE = 10;

  public DirectoryOptions(long pollMs, long leaseMs, long frozenWaitMs, long cacheSize, Ticker ticker, boolean autoPoll) {
    this(pollMs, leaseMs, frozenWaitMs, cacheSize, ticker, autoPoll, CLAIM_POOL_SIZE);
  }

  public DirectoryOptions(long pollMs, long leaseMs, long frozenWaitMs, long cacheSize, Ticker ticker, boolean autoPoll,
      int claimPoolSize) {
    this(pollMs, leaseMs, frozenWaitMs, cacheSize, ticker, autoPoll, claimPoolSize, false);
  }

  public static DirectoryOptions defaults() {
    return new DirectoryOptions(100, 2_000, 5_000, 1_000_000, Ticker.systemTicker(), true);
  }

  public DirectoryOptions withTicker(Ticker t) {
    return new DirectoryOptions(pollMs, leaseMs, frozenWaitMs, cacheSize, t, autoPoll, claimPoolSize, recordStats);
  }

  public DirectoryOptions withAutoPoll(boolean on) {
    return new DirectoryOptions(pollMs, leaseMs, frozenWaitMs, cacheSize, ticker, on, claimPoolSize, recordStats);
  }
}
