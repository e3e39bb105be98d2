package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A move's source side after the copy: is the source still what was copied (checked before the flip
 * and again under the delete's row locks), and the delete itself, in one source transaction that
 * locks the key's rows by primary key, checks them against the copy and deletes them, or stops the
 * move (STOPPED, nothing deleted) when a writer outside Shardex changed them. A source that
 * records the key's changes is deleted a page per transaction instead ({@link PagedDelete}).
 */
final class SourceRows {
  private final DirectoryStore store;
  private final ShardConnector shards;
  private final MoveJournal journal;
  private final KeyCopier copier;
  private final CapturedCopy captured;
  /** Per move this process copied: the source's server-side digest in the copy's snapshot. */
  private final Map<Long, String> sourceDigests = new ConcurrentHashMap<>();

  /** The paged delete's nice ratio ({@link MovePace}). */
  private final double niceRatio;

  SourceRows(DirectoryStore store, ShardConnector shards, MoveJournal journal, KeyCopier copier, CapturedCopy captured,
      double niceRatio) {
    this.niceRatio = niceRatio;
    this.store = store;
    this.shards = shards;
    this.journal = journal;
    this.copier = copier;
    this.captured = captured;
  }

  /** Remembers the source's digest taken in the snapshot this process copied (cheap to compare under FROZEN). */
  void copiedWithDigest(long moveId, String digest) {
    sourceDigests.put(moveId, digest);
  }

  /**
   * What changed on the source since the copy, or null: by the change record when this process ran
   * the frozen round from it (cheap), else by the digest taken in the copy's snapshot, else (after
   * a restart) by the whole key's digest or fingerprint against the journal's.
   */
  String changeSinceCopy(MoveRecord m, Connection src, List<TableShape> shapes) throws SQLException {
    if (captured.checkedHere(m.id())) {
      return captured.changedSince(src, shards, m);
    }
    String digest = sourceDigests.remove(m.id());
    Object copied = digest != null ? digest : m.copied();
    Object now = digest != null ? DeltaSync.quickDigest(src, shapes, MoveCatalog.keyType(store, m.keySpace()), m.key())
        : current(m, src, shapes);
    return now.equals(copied) ? null : "copied " + copied + ", source now " + now;
  }

  /** The source's rows of the key, fingerprinted the way the journal's copy was. */
  private Fingerprint current(MoveRecord m, Connection src, List<TableShape> shapes) throws SQLException {
    KeyType type = MoveCatalog.keyType(store, m.keySpace());
    return KeyDigest.isDigest(m.copied()) ? KeyDigest.of(src, shapes, type, m.key()).fingerprint()
        : copier.fingerprint(src, shapes, type, m.key(), false);
  }

  /** Deletes the key's rows from the source (one transaction, or pages when recorded); returns the journal's detail. */
  String delete(MoveRecord m) throws SQLException {
    try (Connection src = shards.connect(m.from())) {
      KeyCopier.prepare(src);
      List<TableShape> shapes = KeyCopier.shapes(src, MoveCatalog.tables(store, m.keySpace()), m.from());
      KeyType type = MoveCatalog.keyType(store, m.keySpace());
      if (KeyDigest.isDigest(m.copied()) && ChangeCapture.recording(src, m.id())) {
        return deleteInPages(m, src, shapes, type);
      }
      src.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED); // no gap locks; reads see the locked rows
      src.setAutoCommit(false);
      try {
        // Lock the key's rows by primary key (never a scan that would lock other keys' rows), then
        // check them, and anything added since, against the copy.
        var locked = copier.lockRows(src, shapes, type, m.key());
        Fingerprint now = current(m, src, shapes);
        boolean alreadyDeleted = now.rows() == 0; // a crash after the delete committed, before DONE
        String changed = alreadyDeleted || now.equals(m.copied()) ? null : "copied " + m.copied() + ", source now " + now;
        long deleted = 0;
        if (changed == null && !alreadyDeleted) {
          deleted = copier.deleteLocked(src, locked, type, m.key());
          long left = copier.count(src, shapes, type, m.key());
          if (left != 0 || deleted != now.rows()) {
            changed = "copied " + m.copied() + "; deleting by primary key removed " + deleted + " and left " + left
                + " row(s) (rows added meanwhile)";
          }
        }
        if (changed != null) {
          src.rollback();
          journal.advance(m.id(), MoveStep.STOPPED, null, "source changed after the copy (" + changed + "); nothing deleted"
              + captured.release(shards, m));
          throw ShardexError.SOURCE_CHANGED.exception(m.id(), m.key(), m.from(), changed, m.to());
        }
        src.commit();
        return done(m, alreadyDeleted, deleted);
      } catch (SQLException | RuntimeException e) {
        KeyCopier.rollbackQuietly(src, e);
        throw e;
      }
    }
  }

  /**
   * The delete of a source that records the key's changes: checked once against the copy's digest,
   * then a page per transaction, each committed only while no change record arrived
   * ({@link PagedDelete}).
   */
  private String deleteInPages(MoveRecord m, Connection src, List<TableShape> shapes, KeyType type) throws SQLException {
    src.setAutoCommit(true);
    Fingerprint now = current(m, src, shapes);
    if (now.rows() == 0) {
      return done(m, true, 0); // a crash after the delete, before DONE
    }
    String changed = now.equals(m.copied()) ? null : "copied " + m.copied() + ", source now " + now;
    long deleted = 0;
    int pages = 0;
    String paced = "";
    if (changed == null) {
      long pending = ChangeCapture.pending(src, m.id());
      changed = pending == 0 ? null : pending + " change record(s) arrived on the source after the frozen round";
    }
    if (changed == null) {
      MovePace pace = new MovePace(niceRatio);
      PagedDelete.Result r = new PagedDelete(copier.batchSize()).run(src, m.id(), shapes, type, m.key(), pace);
      paced = pace.summary();
      deleted = r.deleted();
      pages = r.pages();
      changed = r.stopped();
      long left = changed == null ? copier.count(src, shapes, type, m.key()) : 0;
      if (changed == null && (left != 0 || deleted != now.rows() || ChangeCapture.pending(src, m.id()) > 0)) {
        changed = "copied " + m.copied() + "; the paged delete removed " + deleted + " and left " + left
            + " row(s) (a writer outside Shardex)";
      }
    }
    if (changed != null) {
      String kept = deleted == 0 ? "nothing deleted" : deleted + " copied row(s) deleted, the rest kept";
      journal.advance(m.id(), MoveStep.STOPPED, null, "source changed after the copy (" + changed + "); " + kept
          + captured.release(shards, m));
      throw ShardexError.SOURCE_CHANGED.exception(m.id(), m.key(), m.from(), changed, m.to());
    }
    return done(m, false, deleted) + " in " + pages + " page(s) of at most " + PagedDelete.PAGE + paced;
  }

  private static String done(MoveRecord m, boolean alreadyDeleted, long deleted) {
    return "moved " + m.copied().rows() + " row(s) from shard " + m.from() + " to shard " + m.to()
        + (alreadyDeleted ? "" : "; deleted " + deleted + " from the source");
  }
}
