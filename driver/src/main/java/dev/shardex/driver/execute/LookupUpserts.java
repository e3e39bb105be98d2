package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.List;

/**
 * REPLACE and INSERT ... ON DUPLICATE KEY UPDATE into a table with lookups, as one server holding
 * every row would run them. A PRIMARY or UNIQUE key without the shard key is a one-column key with
 * a unique lookup (routing refuses others, SHX1211), so the row a value collides with is the one
 * its entry names: under the row's own key it is on the row's shard, and the shard's own REPLACE
 * or ON DUPLICATE KEY UPDATE resolves it; under another key it may be on another shard, and:
 *
 * <ul>
 *   <li>REPLACE deletes that row on its shard (as MySQL deletes every row a new row collides with),
 *       re-points the entry to the new row's key and inserts the row: one count per row deleted and
 *       per row inserted, as MySQL counts;
 *   <li>ON DUPLICATE KEY UPDATE runs its assignments on that row instead of inserting
 *       ({@code VALUES(col)} read from the inserted row), counted 2 when it changed, else as the
 *       shard counts an unchanged row (1, or 0 with {@code useAffectedRows=true}); the row's
 *       entries do not change. A row that collides with two rows (MySQL updates the first by index
 *       order), or whose update would move that row to another key, is refused by name.
 * </ul>
 *
 * <p>Order and races: the claim ({@link LookupClaim}) locks each value's entry first and stays
 * open until the rows are written, as for INSERT, so a racing writer of the value waits. The
 * rows collided with are then read with a locking read, changed, and the statement's rows written,
 * all in one transaction: the caller's, or in autocommit one Shardex opens (atomic across the
 * shards, as {@code shardex.transactions} makes it), so a failure changes nothing. The claim
 * commits before the rows do, as {@link HeldWrites} explains; the entries of rows deleted go after
 * (as a DELETE's). A REPLACE of a value another key holds is refused inside the caller's
 * transaction: its entry moves when the statement ends, and a rollback would leave the restored
 * row without it. Its one crash window: a driver that dies after the claim's commit and before the
 * rows' leaves that entry on the new key while the rows roll back ({@code shardex lookups verify
 * --repair} points it back).
 */
final class LookupUpserts {
  /** The work between the claim's opening and its commit. */
  @FunctionalInterface
  private interface Body {
    Outcome run() throws SQLException;
  }

  private final Directory directory;
  private final ShardSession session;
  private final LookupOwners owners;
  private final LookupWrites.KeyName keyName;

  LookupUpserts(Directory directory, ShardSession session, LookupWrites.KeyName keyName) {
    this.directory = directory;
    this.session = session;
    this.owners = new LookupOwners(session, directory);
    this.keyName = keyName;
  }

  Outcome run(LookupWork w, RoutePlan plan, String sql, Object[] params, LookupWrites.Write write) throws SQLException {
    boolean autoCommit = session.state().autoCommit();
    UpsertShards shards = new UpsertShards(session, directory);
    UpsertRun run = new UpsertRun(w, sql, params, !autoCommit, shards, owners, directory, keyName);
    run.refuseTwoKeys();
    run.readOwnRows();
    Outcome out;
    try (LookupClaim claim = LookupClaim.open(directory.store())) {
      LookupRows.lockAll(claim, w); // every value the statement gives, the ones it may release too
      List<UpsertRun.Clash> clashes = run.claimUnique(claim);
      Body settled = () -> {
        run.settle(claim, clashes);
        return run.write(claim, plan, write);
      };
      out = clashes.isEmpty() ? held(claim, () -> run.write(claim, plan, write))
          : autoCommit ? ownTransaction(claim, shards, run, settled) : callersTransaction(claim, shards, settled);
    }
    List<UpsertRun.Entry> gone = run.gone();
    if (!gone.isEmpty()) {
      session.afterCommit(() -> release(w.table(), gone));
    }
    return counted(out, run.counted());
  }

  /** No row of another key involved: as an INSERT, the rows held uncommitted in autocommit until the claim commits. */
  private Outcome held(LookupClaim claim, Body body) throws SQLException {
    try (HeldWrites held = session.holdWrites()) {
      Outcome out = shardsOwnError(held != HeldWrites.NONE, body);
      claim.commit();
      held.commit();
      return out;
    }
  }

  private Outcome callersTransaction(LookupClaim claim, UpsertShards shards, Body body) throws SQLException {
    Outcome out = guarded(shards, body);
    claim.commit();
    return out;
  }

  /**
   * Autocommit, rows of other keys involved: one transaction of Shardex's own, atomic across the
   * shards. The claim commits first, then the rows (see {@link HeldWrites}); when the rows' commit
   * fails, the entries a REPLACE re-pointed go back to the rows that are still there.
   */
  private Outcome ownTransaction(LookupClaim claim, UpsertShards shards, UpsertRun run, Body body) throws SQLException {
    session.setAutoCommit(false);
    boolean claimed = false;
    boolean committed = false;
    try {
      Outcome out = shardsOwnError(true, () -> guarded(shards, body));
      claim.commit();
      claimed = true;
      session.commit();
      committed = true;
      return out;
    } finally {
      if (!committed) {
        rollback();
      }
      if (claimed && !committed) {
        run.restoreRepointed();
      }
      session.setAutoCommit(true);
    }
  }

  /**
   * The body; a write that failed on some shards after others applied it (SHX1505) is rolled back
   * everywhere when {@code rolledBack}, so its error is the failing shard's own, as one server's
   * statement rollback would report it.
   */
  private static Outcome shardsOwnError(boolean rolledBack, Body body) throws SQLException {
    try {
      return body.run();
    } catch (SQLException e) {
      if (rolledBack && ShardexError.WRITE_PARTIAL.is(e) && e.getCause() instanceof SQLException shard) {
        throw shard;
      }
      throw e;
    }
  }

  /** The in-flight marks of the keys written to the rows collided with are the transaction's until it ends. */
  private Outcome guarded(UpsertShards shards, Body body) throws SQLException {
    try {
      return body.run();
    } finally {
      session.settle(shards.guards());
    }
  }

  private void rollback() {
    try {
      session.rollback();
    } catch (SQLException e) {
      // the statement's own error is the one to report; a shard that failed has rolled back
    }
  }

  /** Deletes each entry whose row is gone, after locking it and checking no row with the value came back (as a DELETE's). */
  private void release(TableDef def, List<UpsertRun.Entry> gone) throws SQLException {
    for (UpsertRun.Entry e : gone) {
      try (LookupClaim claim = LookupClaim.open(directory.store())) {
        if (claim.lock(e.l(), e.v(), e.k()) && !owners.exists(def, e.l().column(), e.raw(), e.k())) {
          claim.delete(e.l(), e.v(), e.k());
        }
        claim.commit();
      }
      directory.lookups().forget(e.l(), e.v());
    }
  }

  /** The statement's count: its own write's, plus the rows deleted or updated on other shards; ROW_COUNT() says the same. */
  private Outcome counted(Outcome out, long extra) {
    if (extra == 0) {
      return out;
    }
    long total = Math.max(0, out.updateCount()) + extra;
    session.values().updated(total);
    return new Outcome(out.resultSet(), total, out.generatedKeys(), out.warnings(), out.insertId());
  }
}
