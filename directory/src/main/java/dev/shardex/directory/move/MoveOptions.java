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
 * @param captureMinRows users with fewer rows find the delta under FROZEN by reading both sides:
 *     for them that is cheaper than the change record's trigger DDL ({@link ChangeCapture})
 * @param catchUp the catch-up's round size and when a catch-up that does not converge stops the move
 * @param niceRatio the pre-copy and the paged source delete sleep this many times each batch's time after it
 *     ({@link MovePace}; 0: full speed)
 */
public record MoveOptions(long ackTimeoutMs, long leaseMs, long marginMs, long pollMs, int batchSize, long captureMinRows,
    CatchUpLimits catchUp, double niceRatio) {
  /** The default nice ratio: full speed. */
  public static final double NICE_RATIO = 0;
  /** Past this a pre-copy would take more than 100 times as long as at full speed. */
  public static final double MAX_NICE_RATIO = 100;

  public MoveOptions {
    if (!(niceRatio >= 0) || niceRatio > MAX_NICE_RATIO) {
      throw new IllegalArgumentException("the nice ratio must be from 0 to " + MAX_NICE_RATIO + ": " + niceRatio);
    }
  }

  /**
   * Reading both sides of a 2,000-row user under FROZEN takes tens of milliseconds; installing and
   * dropping the record's triggers takes about as long and blocks the table's other writers
   * briefly, on every move (a rebalance of many small users would pay it thousands of times).
   */
  public static final long CAPTURE_MIN_ROWS = 2_000;

  public MoveOptions(long ackTimeoutMs, long leaseMs, long marginMs, long pollMs, int batchSize) {
    this(ackTimeoutMs, leaseMs, marginMs, pollMs, batchSize, CAPTURE_MIN_ROWS, CatchUpLimits.defaults(), NICE_RATIO);
  }

  public static MoveOptions defaults() {
    return new MoveOptions(10_000, 2_000, 1_000, 5, 500);
  }

  public MoveOptions withCaptureMinRows(long rows) {
    return new MoveOptions(ackTimeoutMs, leaseMs, marginMs, pollMs, batchSize, rows, catchUp, niceRatio);
  }

  public MoveOptions withCatchUp(CatchUpLimits limits) {
    return new MoveOptions(ackTimeoutMs, leaseMs, marginMs, pollMs, batchSize, captureMinRows, limits, niceRatio);
  }

  public MoveOptions withNiceRatio(double ratio) {
    return new MoveOptions(ackTimeoutMs, leaseMs, marginMs, pollMs, batchSize, captureMinRows, catchUp, ratio);
  }

  /** A client whose heartbeat is older than this (directory clock) has lost its lease. */
  public long staleAfterMs() {
    return leaseMs + marginMs;
  }

  public MoveOptions withAckTimeoutMs(long ms) {
    return new MoveOptions(ms, leaseMs, marginMs, pollMs, batchSize, captureMinRows, catchUp, niceRatio);
  }

  public MoveOptions withLease(long lease, long margin) {
    return new MoveOptions(ackTimeoutMs, lease, margin, pollMs, batchSize, captureMinRows, catchUp, niceRatio);
  }
}
