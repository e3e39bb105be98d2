package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.Retry;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Moves one key (a user) from shard A to shard B online, losing no write.
 *
 * <p>The protocol (DESIGN.md, "leases and moves"), one journal step each:
 * <ol>
 *   <li>pre-copy: while the key is still ACTIVE on A, copy a snapshot of its rows to B (one
 *       verified destination transaction). Nothing routes to B yet, so this draft is never read;
 *       it only makes the copy under FROZEN small.
 *   <li>freeze the key (FROZEN, logged) and wait until every live client applied the freeze.
 *       Drivers ack only after their writes to the key that were in flight have finished, and
 *       new writes to a FROZEN key wait; so from here the source rows are still.
 *   <li>bring B up to date with the delta only ({@link DeltaSync}: delete the rows gone or changed,
 *       insert the changed and new ones) in one transaction, verified (count and SHA-256 over every
 *       row in primary-key order, read back in that transaction) before it commits. If the delta
 *       cannot make B match, nothing is committed and the full copy runs instead.
 *   <li>check the source is still what was copied, then flip the key to B, ACTIVE (logged), and
 *       wait for the acks again, so no driver reads the key on A any more. Only now does B's copy
 *       become authoritative, and it is the verified image of the frozen source.
 *   <li>in one source transaction: lock the rows, check they are unchanged since the copy, delete.
 *       If a writer outside Shardex changed them, the move stops (STOPPED) and deletes nothing.
 * </ol>
 *
 * <p>Failures: before the flip, any SQL failure rolls the move back (the copy on B is deleted,
 * the key is ACTIVE on A again) so no key stays frozen; after it, the move stays at its step
 * and {@link #resume} finishes it later (the key is already ACTIVE on B). A crash anywhere
 * leaves the journal at the last step done; {@code resume} continues from there. Whoever runs a
 * move holds its {@link MoveLock}.
 */
public final class Mover {
  private final DirectoryStore store;
  private final ShardConnector shards;
  private final MoveOptions options;
  private final FaultHook faults;
  private final MoveJournal journal;
  private final AckWaiter acks;
  private final KeyCopier copier;
  private final DeltaSync delta;
  private final CapturedCopy captured;
  private volatile Consumer<MoveRecord> listener = m -> {};
  private final SourceRows source;

  public Mover(DirectoryStore store, ShardConnector shards, MoveOptions options, FaultHook faults) {
    this.store = store;
    this.shards = shards;
    this.options = options;
    this.faults = faults == null ? FaultHook.NONE : faults;
    this.journal = new MoveJournal(store);
    this.acks = new AckWaiter(store, options);
    this.copier = new KeyCopier(options.batchSize());
    this.delta = new DeltaSync(copier, options.batchSize());
    this.captured = new CapturedCopy(new ChangeDelta(delta), options.catchUp());
    this.source = new SourceRows(store, shards, journal, copier, captured, options.niceRatio());
  }

  public Mover(DirectoryStore store, ShardConnector shards) {
    this(store, shards, MoveOptions.defaults(), FaultHook.NONE);
  }

  /** Called after every step a move takes (progress reporting); must not throw. */
  public Mover onStep(Consumer<MoveRecord> stepListener) {
    this.listener = stepListener;
    return this;
  }

  public MoveJournal journal() {
    return journal;
  }

  public MoveOptions options() {
    return options;
  }

  /** Moves a key to shard {@code to} and returns the finished journal row; throws if it could not. */
  public MoveRecord move(String keySpace, String key, int to) throws SQLException {
    return run(plan(keySpace, key, to));
  }

  /** Checks a move is possible and journals it (PLANNED); nothing changes until it runs. */
  public long plan(String keySpace, String key, int to) throws SQLException {
    Placement p = new MoveRefusals(store, shards, journal, copier).check(keySpace, key, to);
    return journal.begin(keySpace, key, p.shardId(), to);
  }

  /** Runs (or resumes) a journaled move to its end: DONE, ABORTED or STOPPED. */
  public MoveRecord run(long moveId) throws SQLException {
    try (MoveLock lock = MoveLock.acquire(store.dataSource(), moveId)) {
      MoveRecord m = journal.get(moveId);
      while (!m.step().terminal()) {
        try {
          m = advance(m);
        } catch (SQLException e) {
          fail(moveId, e);
          throw e;
        }
        listener.accept(m);
      }
      return m;
    }
  }

  /** Finishes a move a crash interrupted, from its last journaled step. */
  public MoveRecord resume(long moveId) throws SQLException {
    return run(moveId);
  }

  /** Rolls back a move that has not flipped yet: the key is ACTIVE on its source again. */
  public MoveRecord abort(long moveId) throws SQLException {
    try (MoveLock lock = MoveLock.acquire(store.dataSource(), moveId)) {
      MoveRecord m = journal.get(moveId);
      if (m.step().terminal()) {
        return m;
      }
      if (m.step().flipped()) {
        throw ShardexError.UNKNOWN_MOVE.exception("move " + moveId + " has flipped the key to shard " + m.to()
            + " already; it can only go forward: 'shardex moves resume " + moveId + "'");
      }
      return rollback(m, "aborted by the operator");
    }
  }

  private MoveRecord advance(MoveRecord m) throws SQLException {
    switch (m.step()) {
      case PLANNED, PRECOPYING -> precopy(m);
      case PRECOPIED -> store.inTransaction(c -> {
        long change = store.freezeKey(c, m.keySpace(), m.key(), m.from());
        journal.advance(c, m.id(), MoveStep.FROZEN, change, null, "frozen on shard " + m.from() + "; waiting for clients");
        return null;
      });
      case FROZEN -> {
        acks.await(m, m.changeId(), "the move is rolled back: the key stays on shard " + m.from());
        journal.advance(m.id(), MoveStep.DRAINED, null, "clients drained; copying");
      }
      case DRAINED, COPYING -> copy(m);
      case COPIED -> flip(m);
      case FLIPPED -> {
        acks.await(m, m.changeId(), "the key is ACTIVE on shard " + m.to() + "; its old rows stay on shard " + m.from()
            + " until 'shardex moves resume " + m.id() + "'");
        journal.advance(m.id(), MoveStep.FLIP_DRAINED, null, "clients follow shard " + m.to() + "; deleting the source");
      }
      case FLIP_DRAINED, DELETING -> deleteSource(m);
      default -> throw new IllegalStateException("no step after " + m.step());
    }
    MoveRecord next = journal.get(m.id());
    faults.after(next.step(), next);
    return next;
  }

  /**
   * Copies a snapshot of the key to the destination while it is still ACTIVE on the source. Rows
   * on the destination are invisible until the flip (everything routes to the source), so a stale
   * snapshot is harmless: the copy under FROZEN brings it up to date. Re-run after a crash at
   * PRECOPYING, the copy first deletes what an earlier attempt left.
   */
  private void precopy(MoveRecord m) throws SQLException {
    KeyType type = MoveCatalog.keyType(store, m.keySpace());
    List<TableDef> tables = MoveCatalog.tables(store, m.keySpace());
    try (Connection src = shards.connect(m.from()); Connection dst = shards.connect(m.to())) {
      if (m.step() == MoveStep.PLANNED) {
        refuseForeignRows(m, dst, tables, type);
        store.inTransaction(c -> {
          long change = store.announceMove(c, m.keySpace(), m.key(), m.from(), m.to(), "COPYING");
          journal.advance(c, m.id(), MoveStep.PRECOPYING, change, null, "pre-copying to shard " + m.to() + " (key still ACTIVE)");
          return null;
        });
        faults.after(MoveStep.PRECOPYING, journal.get(m.id()));
      }
      // Key-less reads must hide the copy before it exists: every client applied the announcement
      // and finished the key-less reads it had begun before.
      MoveRecord announced = journal.get(m.id());
      if (announced.changeId() != null) {
        acks.await(announced, announced.changeId(), "the move is rolled back: the key stays on shard " + m.from());
      }
      KeyCopier.prepare(src);
      List<TableShape> shapes = KeyCopier.shapes(src, tables, m.from());
      // before the copy's snapshot, so that every later change is recorded
      String refused = captured.begin(src, dst, m, shapes, copier.count(src, shapes, type, m.key()), options.captureMinRows());
      MovePace pace = new MovePace(options.niceRatio()); // the writers keep a share of the shards
      Fingerprint snapshot = Retry.onDeadlock(() -> copier.copy(src, m.from(), dst, m.to(), tables, type, m.key(), m.id(), pace));
      // Catch up with the writes made during the copy, still ACTIVE: the delta left for the frozen
      // window is then only what arrives during the last, short pass.
      String how = refused == null ? captured.catchUp(src, dst, shapes, type, m) : null;
      if (how == null) {
        DeltaSync.Result caughtUp = Retry.onDeadlock(() -> delta.sync(src, dst, shapes, type, m.key()));
        how = (caughtUp.copied() == null ? "" : "caught up (" + caughtUp.delta() + ")")
            + (refused == null ? "" : "; no change record: " + refused);
        snapshot = caughtUp.copied() == null ? snapshot : caughtUp.copied();
      }
      journal.advance(m.id(), MoveStep.PRECOPIED, snapshot, "pre-copied " + snapshot + pace.summary() + ", " + how + "; freezing");
    }
  }

  /**
   * The copy under FROZEN: after a pre-copy, only the delta since it (falling back to the full copy
   * if the delta cannot make the destination match); without one (a move journaled by an older
   * version), the delta from an empty destination is the full copy.
   */
  private void copy(MoveRecord m) throws SQLException {
    KeyType type = MoveCatalog.keyType(store, m.keySpace());
    List<TableDef> tables = MoveCatalog.tables(store, m.keySpace());
    try (Connection src = shards.connect(m.from()); Connection dst = shards.connect(m.to())) {
      if (m.step() == MoveStep.DRAINED) {
        if (m.copied() == null) {
          refuseForeignRows(m, dst, tables, type); // no pre-copy: rows there now can only be someone else's
        }
        journal.advance(m.id(), MoveStep.COPYING, null, "bringing shard " + m.to() + " up to date");
        faults.after(MoveStep.COPYING, journal.get(m.id()));
      }
      KeyCopier.prepare(src);
      List<TableShape> shapes = KeyCopier.shapes(src, tables, m.from());
      ChangeDelta.Round round = captured.frozenRound(src, dst, shapes, type, m);
      if (round != null) {
        journal.advance(m.id(), MoveStep.COPIED, round.digest().fingerprint(), "applied " + round.records()
            + " change record(s) (" + round.deleted() + " row(s) replaced, " + round.written() + " written); digest "
            + round.digest().fingerprint());
        return;
      }
      DeltaSync.Result synced = Retry.onDeadlock(() -> delta.sync(src, dst, shapes, type, m.key()));
      Fingerprint copied = synced.copied();
      String how = "copied the delta (" + synced.delta() + ") and verified " + copied;
      if (copied != null) {
        source.copiedWithDigest(m.id(), synced.sourceDigest());
      } else {
        copied = Retry.onDeadlock(() -> copier.copy(src, m.from(), dst, m.to(), tables, type, m.key(), m.id(), MovePace.FULL_SPEED));
        how = "the delta did not verify; copied in full and verified " + copied;
      }
      journal.advance(m.id(), MoveStep.COPIED, copied, how);
    }
  }

  /** Refuses the move if the destination holds rows of the key this move did not put there. */
  private void refuseForeignRows(MoveRecord m, Connection dst, List<TableDef> tables, KeyType type) throws SQLException {
    KeyCopier.prepare(dst);
    long present = copier.count(dst, KeyCopier.shapes(dst, tables, m.to()), type, m.key());
    if (present > 0) {
      throw ShardexError.MOVE_REFUSED.exception(m.key(), m.keySpace(), "shard " + m.to() + " already holds "
          + present + " row(s) of it; check with 'shardex verify'");
    }
  }

  private void flip(MoveRecord m) throws SQLException {
    // Belt and braces before the point of no return: a writer outside Shardex that changed the
    // source since the copy makes us roll back now, with nothing to reconcile.
    // The server's digest of the source, taken in the copy's snapshot, is compared when this process
    // made the copy (cheap under FROZEN); after a restart, the whole source is fingerprinted again.
    try (Connection src = shards.connect(m.from())) {
      KeyCopier.prepare(src);
      List<TableShape> shapes = KeyCopier.shapes(src, MoveCatalog.tables(store, m.keySpace()), m.from());
      String changed = source.changeSinceCopy(m, src, shapes);
      if (changed != null) {
        throw ShardexError.COPY_MISMATCH.exception(m.id(), m.key(), m.to(), m.from(), "the source changed after the copy: "
            + changed, m.from());
      }
    }
    store.inTransaction(c -> {
      store.flipKey(c, m.keySpace(), m.key(), m.from(), m.to());
      // from here key-less reads hide the source's rows; the flip's ack covers this change too
      long change = store.announceMove(c, m.keySpace(), m.key(), m.from(), m.to(), "FLIPPED");
      journal.advance(c, m.id(), MoveStep.FLIPPED, change, null, "ACTIVE on shard " + m.to() + "; waiting for clients");
      return null;
    });

  }

  private void deleteSource(MoveRecord m) throws SQLException {
    if (m.step() == MoveStep.FLIP_DRAINED) {
      journal.advance(m.id(), MoveStep.DELETING, null, "deleting " + m.copied() + " from shard " + m.from());
      faults.after(MoveStep.DELETING, journal.get(m.id()));
    }
    // A deadlock with writers of other keys on the source (row locks taken in another order) rolls
    // the whole transaction back: lock, check and delete again.
    long start = System.nanoTime();
    String deleted = Retry.onDeadlock(() -> source.delete(m));
    long released = System.nanoTime();
    String detail = deleted + captured.release(shards, m) + " (source delete " + (released - start) / 1_000_000
        + " ms, then the change record's end " + (System.nanoTime() - released) / 1_000_000 + " ms)";
    store.inTransaction(c -> {
      store.announceMove(c, m.keySpace(), m.key(), m.from(), m.to(), "DONE"); // nothing left to hide
      journal.advance(c, m.id(), MoveStep.DONE, null, null, detail);
      return null;
    });
  }

  /** A failed step: roll back if the key has not flipped; otherwise leave it for resume. */
  private void fail(long moveId, SQLException cause) {
    try {
      MoveRecord m = journal.get(moveId);
      if (m.step().terminal()) {
        return;
      }
      if (m.step().flipped()) {
        journal.note(moveId, "interrupted at " + m.step() + ": " + cause.getMessage() + "; run 'shardex moves resume " + moveId + "'");
      } else {
        rollback(m, cause.getMessage());
      }
    } catch (SQLException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Deletes what the (pre-)copy put on B, then unfreezes the key on A if it is frozen and journals
   * ABORTED in one directory transaction. Re-runnable. Rows on B are ours once PRECOPYING or
   * COPYING was journaled, and from then on a (pre-)copy fingerprint is journaled until the flip.
   */
  private MoveRecord rollback(MoveRecord m, String why) throws SQLException {
    String leftover = "";
    if (m.step() == MoveStep.PRECOPYING || m.step() == MoveStep.COPYING || m.copied() != null) {
      try (Connection dst = shards.connect(m.to())) {
        KeyCopier.prepare(dst);
        dst.setAutoCommit(false);
        List<TableShape> shapes = KeyCopier.shapes(dst, MoveCatalog.tables(store, m.keySpace()), m.to());
        copier.delete(dst, shapes, MoveCatalog.keyType(store, m.keySpace()), m.key());
        dst.commit();
      } catch (SQLException e) {
        leftover = "; the partial copy on shard " + m.to() + " could not be deleted (" + e.getMessage()
            + "): 'shardex verify' lists it";
      }
    }
    String detail = "rolled back, ACTIVE on shard " + m.from() + ": " + why + leftover + captured.release(shards, m);
    store.inTransaction(c -> {
      if (m.step().frozen()) {
        store.unfreezeKey(c, m.keySpace(), m.key(), m.from());
      }
      if (m.step() != MoveStep.PLANNED) {
        store.announceMove(c, m.keySpace(), m.key(), m.from(), m.to(), "ABORTED"); // the copy is gone
      }
      journal.advance(c, m.id(), MoveStep.ABORTED, null, null, detail.length() > 2000 ? detail.substring(0, 2000) : detail);
      return null;
    });
    return journal.get(m.id());
  }
}
