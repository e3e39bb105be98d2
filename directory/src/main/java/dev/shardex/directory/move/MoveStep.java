package dev.shardex.directory.move;

/**
 * The journal's steps, in the order a move takes them. A step is recorded once it is done, so a
 * resumed move continues with what comes after its step. Directory-side steps (FROZEN, FLIPPED,
 * ABORTED) are journaled in the same transaction as the key-map change they describe.
 */
public enum MoveStep {
  /** Journaled; nothing changed yet. */
  PLANNED,
  /** The key is FROZEN on the source; {@code change_id} is the freeze. */
  FROZEN,
  /** Every live client applied the freeze: no write to the key is in flight. */
  DRAINED,
  /** The destination was empty for the key and the copy started: rows there are ours. */
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

  /** Whether the destination owns the key: from here on a move can only go forward. */
  public boolean flipped() {
    return this == FLIPPED || this == FLIP_DRAINED || this == DELETING || this == DONE || this == STOPPED;
  }
}
