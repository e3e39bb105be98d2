package dev.shardex.directory.move;

/**
 * Decides, after each catch-up round, whether to go on, freeze or stop the move: the catch-up
 * converges only while it applies the change record faster than the moving key is written, and a
 * freeze with a large backlog left would hold the key's writes for as long as that backlog takes
 * (a frozen window growing with the user). So:
 * <ul>
 *   <li>freeze once a round found fewer than {@link #FEW} records (and was not cut short by its
 *       size), or fewer than that are left;
 *   <li>when the backlog has reached no new low for {@link CatchUpLimits#stallRounds} rounds or
 *       {@link CatchUpLimits#stallMs} (or after {@link #MAX_ROUNDS}): freeze if what is left takes
 *       at most {@link #FROZEN_BUDGET_MS} at the rate this catch-up applied records, else stop.
 * </ul>
 */
final class CatchUpGuard {
  /** A catch-up round that applied fewer records than this is the last one before the freeze. */
  static final int FEW = 64;
  /** Rounds at most, converging or not. */
  static final int MAX_ROUNDS = 1_000;
  /** The longest frozen round the guard freezes into when the backlog stopped shrinking. */
  static final long FROZEN_BUDGET_MS = 100;

  enum Verdict { GO_ON, FREEZE, STOP }

  private final CatchUpLimits limits;
  private final long start = System.nanoTime();
  private final long initial;
  private long applied;
  private int rounds;
  private long backlog;
  private long lowest = Long.MAX_VALUE;
  private int lowestRound;
  private long lowestAt;

  /** {@code initial}: the records waiting when the catch-up starts. */
  CatchUpGuard(CatchUpLimits limits, long initial) {
    this.limits = limits;
    this.initial = initial;
    this.backlog = initial;
  }

  /** After a round that applied {@code records} and left {@code left} waiting. */
  Verdict after(int records, long left) {
    long now = System.nanoTime();
    applied += records;
    rounds++;
    backlog = left;
    if (left < lowest) {
      lowest = left;
      lowestRound = rounds;
      lowestAt = now;
    }
    if (records < Math.min(FEW, limits.roundRecords()) || left < FEW) { // a full round of a tiny size says nothing
      return Verdict.FREEZE;
    }
    boolean stalled = rounds - lowestRound >= limits.stallRounds() || (now - lowestAt) / 1_000_000 >= limits.stallMs();
    if (!stalled && rounds < MAX_ROUNDS) {
      return Verdict.GO_ON;
    }
    return left * 1000 <= FROZEN_BUDGET_MS * perSecond() ? Verdict.FREEZE : Verdict.STOP;
  }

  long applied() {
    return applied;
  }

  int rounds() {
    return rounds;
  }

  long elapsedMs() {
    return Math.max(1, (System.nanoTime() - start) / 1_000_000);
  }

  /** Records applied per second so far. */
  long perSecond() {
    return applied * 1000 / elapsedMs();
  }

  /** Records the writers added per second so far (applied plus the growth of the backlog). */
  long addedPerSecond() {
    return Math.max(0, applied + backlog - initial) * 1000 / elapsedMs();
  }

  /** What the journal says of a catch-up that converged. */
  String summary() {
    return applied + " record(s) in " + rounds + " round(s), " + elapsedMs() + " ms, " + perSecond() + " records/s applied, "
        + addedPerSecond() + "/s added by writers";
  }

  /** Why it stopped, for SHX1612. */
  String whyStopped() {
    return "backlog " + initial + " -> " + backlog + " record(s) over " + rounds + " round(s) in " + elapsedMs() / 1000
        + " s, lowest " + lowest + " at round " + lowestRound + "; applied " + perSecond() + " records/s while the writers added "
        + addedPerSecond() + "/s; the " + backlog + " left would take about " + backlog * 1000 / Math.max(1, perSecond())
        + " ms to apply frozen";
  }
}
