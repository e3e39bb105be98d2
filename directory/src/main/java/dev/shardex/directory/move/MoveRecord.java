package dev.shardex.directory.move;

import java.time.Instant;

/** One row of the moves journal. {@code changeId} is the change the current step waits on. */
public record MoveRecord(long id, String keySpace, String key, int from, int to, MoveStep step, String detail,
    Long changeId, Long rowCount, String checksum, Instant startedAt, Instant updatedAt) {

  /** What the copy recorded, to compare the source against before deleting it. */
  public Fingerprint copied() {
    return rowCount == null ? null : new Fingerprint(rowCount, checksum);
  }
}
