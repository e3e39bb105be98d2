package dev.shardex.directory.move;

import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;

/**
 * The pace of a move's bulk work while its key takes writes, as gh-ost's {@code --nice-ratio}:
 * after each batch (of the pre-copy's rows, of the source delete's pages) the mover sleeps
 * {@code ratio} times the time that batch took, so moving a large user leaves the shards' CPU and
 * disk to their writers for that share of the time (0: full speed; 1: the work takes about twice
 * as long at about half the load). Not paced: the catch-up rounds (they must outrun the writers,
 * {@link CatchUpGuard}) and anything under FROZEN, which runs at full speed.
 */
final class MovePace {
  /** No pause: the copies under FROZEN, and moves asked to run at full speed. */
  static final MovePace FULL_SPEED = new MovePace(0);

  private final double ratio;
  private long since;
  private long sleptNanos;

  /** A pace for one copy or delete, its clock starting now; {@code ratio} as {@link MoveOptions} checked it. */
  MovePace(double ratio) {
    this.ratio = ratio;
    this.since = System.nanoTime();
  }

  /** After a batch: sleeps ratio x the time since the last batch ended (or since the pace started). */
  void afterBatch() throws SQLException {
    if (ratio == 0) {
      return;
    }
    long worked = System.nanoTime() - since;
    long pause = (long) (worked * ratio);
    try {
      Thread.sleep(pause / 1_000_000, (int) (pause % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ShardexError.DIRECTORY_STATE.withCause(e, "interrupted while pacing a move's copy or delete");
    }
    sleptNanos += pause;
    since = System.nanoTime();
  }

  /** For the journal: how long the work slept, or empty at full speed. */
  String summary() {
    return ratio == 0 ? "" : String.format(" (nice ratio %s: slept %d ms)", ratio, sleptNanos / 1_000_000);
  }
}
