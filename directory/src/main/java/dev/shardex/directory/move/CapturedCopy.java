package dev.shardex.directory.move;

import dev.shardex.directory.Retry;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mover's steps that use the source's change record ({@link ChangeCapture}), so that the
 * frozen window holds only the rows changed since the last catch-up, whatever the user's size:
 * <ol>
 *   <li>before the pre-copy's snapshot: start recording the key's changes on the source;
 *   <li>after the pre-copy, still ACTIVE: apply the records in rounds until a round finds few (the
 *       writes that arrive during one short round), then take the destination's digest; or stop
 *       the move (SHX1612, rolled back) when the backlog stops shrinking while still too large for
 *       a short frozen round ({@link CatchUpGuard});
 *   <li>under FROZEN (no Shardex write in flight): one last round, carrying the digest forward;
 *   <li>before the flip: no record may have arrived since (a writer outside Shardex while frozen).
 * </ol>
 * Kept per process: a mover restarted after a crash has no digest in memory and falls back to the
 * full-read delta ({@link DeltaSync}) for that move; the records are dropped when the move ends.
 */
final class CapturedCopy {
  private final ChangeDelta changes;
  private final CatchUpLimits limits;
  /** Per move pre-copied with a record by this process: the destination's digest after the catch-up. */
  private final Map<Long, KeyDigest> digests = new ConcurrentHashMap<>();
  /** Moves this process pre-copied without a record: nothing to release on their shards. */
  private final Set<Long> unrecorded = ConcurrentHashMap.newKeySet();
  /** Moves whose frozen round this process ran: their flip checks the record is still empty. */
  private final Set<Long> frozenDone = ConcurrentHashMap.newKeySet();

  CapturedCopy(ChangeDelta changes, CatchUpLimits limits) {
    this.changes = changes;
    this.limits = limits;
  }

  /**
   * Starts the record on the source, and on the destination too: there the mover's own writes are
   * not recorded ({@link KeyCopier#prepare}), so any record is a write outside Shardex to
   * the draft copy, which the frozen round then repairs by reading both sides in full. Null when
   * recording, else why not (the move then reads both sides in full).
   */
  private String start(Connection src, Connection dst, MoveRecord m, List<TableShape> shapes) throws SQLException {
    unrecorded.remove(m.id());
    String refused = ChangeCapture.start(src, m.id(), shapes, m.key());
    if (refused == null) {
      refused = ChangeCapture.start(dst, m.id(), shapes, m.key());
      if (refused != null) {
        ChangeCapture.stop(src, m.id());
      }
    }
    if (refused != null) {
      unrecorded.add(m.id());
    }
    return refused;
  }

  /** Starts the record for a user of {@code rows} rows, or not below {@code minRows}; null when recording, else why not. */
  String begin(Connection src, Connection dst, MoveRecord m, List<TableShape> shapes, long rows, long minRows)
      throws SQLException {
    if (rows < minRows) {
      unrecorded.add(m.id());
      return rows + " row(s), fewer than " + minRows;
    }
    return start(src, dst, m, shapes);
  }

  /**
   * The catch-up after the pre-copy, still ACTIVE: rounds until the backlog is small enough for a
   * short frozen round ({@link CatchUpGuard}); then the destination's digest, recomputed by the
   * server, must equal the one carried through the rounds (the rows are not read back one by one
   * here). Returns the journal's detail, or null when it fell back (then the caller reads both
   * sides); throws SHX1612 when the backlog stopped shrinking while still too large to freeze.
   */
  String catchUp(Connection src, Connection dst, List<TableShape> shapes, KeyType type, MoveRecord m) throws SQLException {
    dst.setAutoCommit(true);
    src.setAutoCommit(true);
    KeyDigest expected = KeyDigest.of(dst, shapes, type, m.key()); // the pre-copy, as the destination holds it
    CatchUpGuard guard = new CatchUpGuard(limits, ChangeCapture.pending(src, m.id()));
    expected = rounds(src, dst, shapes, type, m, guard, expected, false);
    if (expected == null) {
      return null;
    }
    dst.setAutoCommit(true);
    long scan = System.nanoTime();
    KeyDigest stored = KeyDigest.of(dst, shapes, type, m.key());
    if (!stored.fingerprint().equals(expected.fingerprint())) {
      return null; // a row not stored as read (or a write outside Shardex to the draft): read both sides
    }
    scan = (System.nanoTime() - scan) / 1_000_000;
    // The writes made during that scan (a whole user's rows) would otherwise all wait for the frozen
    // round: catch up with them too, reading each written row back now that the digest is checked.
    KeyDigest caughtUp = rounds(src, dst, shapes, type, m, guard, stored, true);
    if (caughtUp == null) {
      return null;
    }
    digests.put(m.id(), caughtUp);
    return "caught up from the change record (" + guard.summary() + "; destination digest checked in " + scan + " ms)";
  }

  /** Rounds until the guard says freeze (returns the digest carried), or stop (SHX1612); null when a round fell back. */
  private KeyDigest rounds(Connection src, Connection dst, List<TableShape> shapes, KeyType type, MoveRecord m, CatchUpGuard guard,
      KeyDigest digest, boolean readBack) throws SQLException {
    KeyDigest expected = digest;
    CatchUpGuard.Verdict verdict;
    do {
      KeyDigest before = expected;
      ChangeDelta.Round r = Retry.onDeadlock(() -> changes.round(src, dst, shapes, type, m.key(), m.id(), before,
          limits.roundRecords(), readBack));
      if (r == null) {
        return null;
      }
      expected = r.digest();
      verdict = guard.after(r.records(), ChangeCapture.pending(src, m.id()));
    } while (verdict == CatchUpGuard.Verdict.GO_ON);
    if (verdict == CatchUpGuard.Verdict.STOP) {
      throw ShardexError.CATCHUP_BEHIND.exception(m.id(), m.key(), m.from(), guard.whyStopped(), m.from(), m.to());
    }
    return expected;
  }

  /** The copy under FROZEN from the record; null when this process cannot (then the caller reads both sides). */
  ChangeDelta.Round frozenRound(Connection src, Connection dst, List<TableShape> shapes, KeyType type, MoveRecord m)
      throws SQLException {
    KeyDigest base = digests.get(m.id());
    if (base == null || !ChangeCapture.recording(src, m.id()) || ChangeCapture.pending(dst, m.id()) > 0) {
      return null; // not pre-copied here, or the draft was written outside Shardex: read both sides
    }
    ChangeDelta.Round r = Retry.onDeadlock(() -> changes.round(src, dst, shapes, type, m.key(), m.id(), base, Integer.MAX_VALUE, true));
    if (r != null) {
      digests.remove(m.id());
      frozenDone.add(m.id());
    }
    return r;
  }

  /**
   * Before the flip: a description of what changed on the source since the frozen round, or null
   * if nothing did. False when this process did not run the frozen round (then the caller
   * compares the source's digest with the journal's).
   */
  boolean checkedHere(long moveId) {
    return frozenDone.contains(moveId);
  }

  String changedSince(Connection src, ShardConnector shards, MoveRecord m) throws SQLException {
    frozenDone.remove(m.id());
    long pending = ChangeCapture.pending(src, m.id());
    if (pending == 0) {
      try (Connection dst = shards.connect(m.to())) {
        pending = ChangeCapture.pending(dst, m.id());
      }
    }
    return pending == 0 ? null : pending + " change record(s) arrived on shard " + m.from() + " or " + m.to()
        + " while the key was frozen (a writer outside Shardex)";
  }

  /** Ends the record of a finished or rolled-back move (best effort: a failure is noted, not thrown). */
  String release(ShardConnector shards, MoveRecord m) {
    digests.remove(m.id());
    frozenDone.remove(m.id());
    if (unrecorded.remove(m.id())) {
      return ""; // (a move resumed by another process is not in the set: it releases, in case)
    }
    StringBuilder note = new StringBuilder();
    for (int shard : new int[] {m.from(), m.to()}) {
      try (Connection c = shards.connect(shard)) {
        ChangeCapture.stop(c, m.id());
      } catch (SQLException e) {
        note.append("; the change record on shard ").append(shard).append(" was not removed (").append(e.getMessage())
            .append("); its triggers stay until that is done: DELETE FROM shardex_moving WHERE move_id = ").append(m.id())
            .append(" there, then any later move from or to that shard drops them");
      }
    }
    return note.toString();
  }
}
