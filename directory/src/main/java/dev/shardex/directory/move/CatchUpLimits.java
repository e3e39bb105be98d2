package dev.shardex.directory.move;

/**
 * How the catch-up from the change record ({@link CapturedCopy}) runs and when it gives up.
 *
 * @param roundRecords records applied per round (one source snapshot, one destination transaction)
 * @param stallRounds rounds in a row that may pass without the backlog reaching a new low before the
 *     move is stopped (or frozen, when what is left is small enough for a short frozen round)
 * @param stallMs the same bound in time: no new low for this long
 */
public record CatchUpLimits(int roundRecords, int stallRounds, long stallMs) {
  /** Per round: bounds the mover's memory and each round's transactions, whatever backlog the pre-copy left. */
  public static final int ROUND_RECORDS = 10_000;
  /** Ten rounds without progress: at 10,000 records a round, 100,000 records applied while the writers kept up. */
  public static final int STALL_ROUNDS = 10;
  public static final long STALL_MS = 60_000;

  public CatchUpLimits {
    if (roundRecords < 1 || stallRounds < 1 || stallMs < 1) {
      throw new IllegalArgumentException("catch-up limits must be positive: " + roundRecords + ", " + stallRounds + ", " + stallMs);
    }
  }

  public static CatchUpLimits defaults() {
    return new CatchUpLimits(ROUND_RECORDS, STALL_ROUNDS, STALL_MS);
  }
}
