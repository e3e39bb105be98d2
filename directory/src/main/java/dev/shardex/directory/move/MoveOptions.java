package dev.shardex.directory.move;

/**
 * How a move waits for clients and copies.
 *
 * @param ackTimeoutMs how long to wait for live clients to apply a freeze or flip; a freeze that
 *     times out is rolled back
 * @param leaseMs the largest {@code shardex.leaseMs} any driver uses
 * @param marginMs extra time past the lease before a silent client is presumed to have stopped
 *     writing (clock-rate drift, a slow last write)
 * @param pollMs how often the acks are re-read
 * @param batchSize rows per INSERT batch while copying
 */
public record MoveOptions(long ackTimeoutMs, long leaseMs, long marginMs, long pollMs, int batchSize) {
  public static MoveOptions defaults() {
    return new MoveOptions(10_000, 2_000, 1_000, 5, 500);
  }

  /** A client whose heartbeat is older than this (directory clock) has lost its lease. */
  public long staleAfterMs() {
    return leaseMs + marginMs;
  }

  public MoveOptions withAckTimeoutMs(long ms) {
    return new MoveOptions(ms, leaseMs, marginMs, pollMs, batchSize);
  }

  public MoveOptions withLease(long lease, long margin) {
    return new MoveOptions(ackTimeoutMs, lease, margin, pollMs, batchSize);
  }
}
