package dev.shardex.directory.move;

/**
 * The journal's steps, in the order a move takes them. A step is recorded once it is done, so a
 * resumed move continues with what comes after its step. Directory-side steps (FROZEN, FLIPPED,
 * ABORTED) are journaled in the same transaction as the key-map change they describe.
 *
 * <p>PRECOPYING and PRECOPIED come before the freeze: the key is still ACTIVE on the source and
 * every driver routes it there, so the destination's rows are a private draft nobody reads. They
 * only shorten the frozen window (the copy under FROZEN becomes a delta); B's copy becomes
 * authoritative at the flip, after the delta was verified against the frozen source.
 */
public enum MoveStep {
  /** Journaled; nothing changed yet. */
  PLANNED,
  /** The destination was empty for the key and the pre-copy started (key still ACTIVE): rows there are ours. */
  PRECOPYING,
  /**
   * A snapshot of the key is on the destination, verified against that snapshot; {@code
   * row_count}/{@code checksum} say what. The source may have moved on since: the copy under
   * FROZEN brings the destination up to date. Rows on the destination stay ours until COPIED.
   */
  PRECOPIED,
  /** The key is FROZEN on the source; {@code change_id} is the freeze. */
  FROZEN,
  /** Every live client applied the freeze: no write to the key is in flight. */
  DRAINED,
  /**
   * The copy under FROZEN started: rows on the destination are ours (found empty at DRAINED, or
   * left by this move's pre-copy).
   */
  COPYING,
  /** Copied and verified in one destination transaction; {@code row_count}/{@code checksum} say what. */
  COPIED,
  /** The key is ACTIVE on the destination; {@code change_id} is the flip. */
  FLIPPED,
  /** Every live client applied the flip: nothing reads the source for the key any more. */
  FLIP_DRAINED,
  /** Deleting the source rows (after checking them unchanged since the copy). */
  DELETING,
  /** Finished: the key's rows live only on the destination. */
  DONE,
  /** Rolled back before the flip: the key is ACTIVE on the source, the destination holds nothing. */
  ABORTED,
  /** Stopped after the flip because the source changed behind Shardex's back; nothing was deleted. */
  STOPPED;

  public boolean terminal() {
    return this == DONE || this == ABORTED || this == STOPPED;
  }

  /** Whether the key is FROZEN on the source at this step (a rollback must unfreeze it). */
  public boolean frozen() {
    return this == FROZEN || this == DRAINED || this == COPYING || this == COPIED;
  }

  /** Whether the destination owns the key: from here on a move can only go forward. */
  public boolean flipped() {
    return this == FLIPPED || this == FLIP_DRAINED || this == DELETING || this == DONE || this == STOPPED;
  }
}
