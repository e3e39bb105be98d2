package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.LookupSelect;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keeps a table's lookup indexes through its writes, in Vitess's consistent-lookup order and with
 * no two-phase commit: entries of new values go in before the rows ({@link LookupClaim}: committed
 * first, their values locked until the rows are written), entries of old values go after the rows
 * are gone (at once in autocommit, after the commit in a transaction). So at every moment every
 * committed row has its entries; the index may only hold extra ones, which reads tolerate (they
 * re-check the row).
 *
 * <p>A unique value another key holds is a duplicate only if that key's row with the value
 * exists: then the write fails as MySQL's own would (1062, SQLState 23000), or INSERT IGNORE skips
 * the row; if the row is gone, the entry was an orphan and is re-pointed.
 */
public final class LookupWrites {
  /** The write itself, run between the lookup steps. */
  public interface Write {
    Outcome run(RoutePlan plan) throws SQLException;
  }

  private final Directory directory;
  private final ShardSession session;
  private final LookupOwners owners;
  private final KeyName keyName;
  private final LookupUpserts upserts;

  /** The name MySQL gives the unique key on a column, for the duplicate-key message. */
  public interface KeyName {
    String apply(String table, String column) throws SQLException;
  }

  public LookupWrites(Directory directory, ShardSession session, KeyName keyName) {
    this.directory = directory;
    this.session = session;
    this.owners = new LookupOwners(session, directory);
    this.keyName = keyName;
    this.upserts = new LookupUpserts(directory, session, keyName);
  }

  /** Runs the write with its lookup work: {@code sql} and {@code params} are the statement's own. */
  public Outcome run(LookupWork w, RoutePlan plan, String sql, Object[] params, Write write) throws SQLException {
    if (w.upsert() != null) {
      return upserts.run(w, plan, sql, params, write); // REPLACE, ON DUPLICATE KEY UPDATE
    }
    return w.type() == StatementType.INSERT || w.type() == StatementType.REPLACE ? insert(w, plan, write)
        : change(w, plan, sql, params, write);
  }

  // ---- INSERT ------------------------------------------------------------------------------------

  /**
   * An INSERT: the values locked and their entries committed by an autocommit claim (one round trip
   * for one value), then the rows written, then the locks released off the caller's path when the
   * claim closes ({@link LookupClaim}). Rows over several shards are held uncommitted in autocommit
   * until all are written ({@link HeldWrites}), so the statement applies on all or none.
   */
  private Outcome insert(LookupWork w, RoutePlan plan, Write write) throws SQLException {
    try (LookupClaim claim = LookupClaim.autocommit(directory.store())) {
      LookupRows.lockAll(claim, w);
      Set<Integer> skipped;
      try {
        skipped = claim(claim, w, null);
      } catch (SQLException | RuntimeException e) {
        LookupRows.undo(claim, w, Set.of(), owners, directory, e); // a duplicate: the entries added before it go
        throw e;
      }
      RoutePlan rest = skipped.isEmpty() ? plan : LookupRows.without(plan, w.shards(), skipped);
      LookupCrashPoint.CLAIMED.reached();
      Outcome out = rest == null ? Outcome.count(0, null) : written(claim, w, skipped, write, rest);
      LookupCrashPoint.UNLOCKING.reached();
      return out;
    }
  }

  /**
   * Writes an INSERT's rows after its claim. When the write is known to have left no row (held and
   * rolled back, or refused by its one shard), the entries it claimed go again ({@link
   * LookupRows#undo}), as one server's failed statement leaves nothing; when rows may be there all
   * the same (a transaction's write over several shards, a lost connection), they stay: an extra
   * entry, never a missing one.
   */
  private Outcome written(LookupClaim claim, LookupWork w, Set<Integer> skipped, Write write, RoutePlan rest)
      throws SQLException {
    boolean wroteNothing = false;
    try (HeldWrites held = rest.shards().size() > 1 ? session.holdWrites() : HeldWrites.NONE) {
      Outcome out;
      try {
        out = held.run(write, rest);
      } catch (SQLException | RuntimeException e) {
        wroteNothing = held != HeldWrites.NONE || rest.shards().size() == 1 && LookupRows.refused(e);
        throw e;
      }
      LookupCrashPoint.WRITTEN.reached();
      held.commit();
      return out;
    } catch (SQLException | RuntimeException e) {
      if (wroteNothing) {
        LookupRows.undo(claim, w, skipped, owners, directory, e); // the held rows are rolled back by now
      }
      throw e;
    }
  }

  /**
   * Claims every lookup of an INSERT's rows, in {@code claim}; returns the rows the write must skip:
   * INSERT IGNORE's duplicates and, when {@code duplicates} is given (a batch), each row whose value
   * another key holds, its 1062 put there instead of thrown.
   */
  Set<Integer> claim(LookupClaim claim, LookupWork w, Map<Integer, SQLException> duplicates) throws SQLException {
    Set<Integer> skipped = new TreeSet<>();
    for (int i = 0; i < w.lookups().size(); i++) {
      claimRows(claim, w, i, skipped, duplicates);
    }
    return skipped;
  }

  /** Claims lookup {@code i} for every row that has a value; rows to skip go to {@code skipped}. */
  private void claimRows(LookupClaim claim, LookupWork w, int i, Set<Integer> skipped,
      Map<Integer, SQLException> duplicates) throws SQLException {
    Lookup l = w.lookups().get(i);
    LookupWork.Claimable c = w.claimable(i, skipped);
    List<Integer> rows = c.rows();
    List<String> vs = c.values();
    List<String> ks = c.keys();
    if (vs.isEmpty()) {
      return;
    }
    for (int clash : claim.add(l, vs, ks)) {
      int r = rows.get(clash);
      if (!settle(claim, w, l, vs.get(clash), w.rowValues()[r][i], w.keys()[r], earlier(vs, ks, clash), duplicates, r)) {
        skipped.add(r);
      }
    }
  }

  /** Whether an earlier row of the same statement claimed the value (for another key): a duplicate within the statement. */
  private static boolean earlier(List<String> vs, List<String> ks, int at) {
    for (int j = 0; j < at; j++) {
      if (LookupValue.folded(vs.get(j)).equals(LookupValue.folded(vs.get(at))) && !ks.get(j).equals(ks.get(at))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A unique value another key holds: re-points an orphan (true), skips the row under INSERT
   * IGNORE (false), else fails as MySQL's duplicate key: thrown, or put in {@code duplicates} as
   * row {@code row}'s (false) when a batch collects them.
   */
  private boolean settle(LookupClaim claim, LookupWork w, Lookup l, String v, Object raw, Object key, boolean sameStatement,
      Map<Integer, SQLException> duplicates, int row) throws SQLException {
    String holder = claim.holder(l, v);
    if (holder == null || holder.equals(key.toString())) {
      return true;
    }
    if (!sameStatement && !owners.exists(w.table(), l.column(), raw, holder)) {
      claim.repoint(l, v, key.toString());
      directory.lookups().forget(l, v);
      return true;
    }
    if (w.ignore()) {
      return false;
    }
    SQLException duplicate = duplicate(w, l, v, holder, key);
    if (duplicates == null) {
      throw duplicate;
    }
    duplicates.putIfAbsent(row, duplicate);
    return false;
  }

  LookupOwners owners() {
    return owners;
  }

  /** Deletes the entries the claim added for {@code w}'s rows, none of which is written ({@link LookupRows#undo}). */
  void undo(LookupClaim claim, LookupWork w) throws SQLException {
    SQLException failed = new SQLException("cannot delete the lookup entries of the rows not written");
    LookupRows.undo(claim, w, Set.of(), owners, directory, failed);
    if (failed.getSuppressed().length > 0) {
      throw (SQLException) failed.getSuppressed()[0];
    }
  }

  /** MySQL's duplicate-key error for value {@code v} of lookup {@code l}, which the row of key {@code holder} has. */
  SQLException duplicate(LookupWork w, Lookup l, String v, String holder, Object key) throws SQLException {
    return LookupRows.duplicate(w.table(), l, v, keyName.apply(w.table().name(), l.column()), holder, key);
  }

  // ---- UPDATE and DELETE -------------------------------------------------------------------------

  private Outcome change(LookupWork w, RoutePlan plan, String sql, Object[] params, Write write) throws SQLException {
    LookupSelect read = LookupSelect.of(sql, w.type(), w.readColumns());
    if (read == null) {
      throw ShardexError.UNSUPPORTED.exception("a multi-table " + w.type() + " of table " + w.table().name()
          + ", which has lookup indexes", "write it as a single-table " + w.type());
    }
    int keyAt = w.lookups().size();
    List<Object[]> old = owners.read(plan.shards(), read.text(), params, read.firstParameter(), keyAt + 1);
    Outcome out;
    try (LookupClaim claim = LookupClaim.open(directory.store());
        HeldWrites held = w.type() == StatementType.UPDATE ? session.holdWrites() : HeldWrites.NONE) {
      claimNew(claim, w, old, keyAt);
      LookupCrashPoint.CLAIMED.reached();
      out = LookupRows.written(claim, held, write, plan);
      LookupCrashPoint.WRITTEN.reached();
      claim.commit();
      LookupCrashPoint.CLAIM_COMMITTED.reached();
      held.commit();
    }
    List<Entry> gone = entries(w, old, keyAt, false);
    List<Entry> rekeyed = entries(w, old, keyAt, true);
    session.afterCommit(() -> settleAfter(w, gone, rekeyed));
    return out;
  }

  /** One entry an UPDATE or DELETE changes: lookup {@code i}, value {@code v} (raw: {@code raw}), from key {@code k} to {@code to}. */
  private record Entry(int i, String v, Object raw, String k, String to) {}

  /**
   * An UPDATE's new entries go in before the rows change, with the duplicate rules of INSERT (an
   * UPDATE to a value another owner holds fails with 1062 and changes nothing). A unique value that
   * only changes its key (the row's key changed, on the same shard) is re-pointed after the commit
   * instead: its one entry cannot name both keys, and both live on the same shard meanwhile.
   */
  private void claimNew(LookupClaim claim, LookupWork w, List<Object[]> old, int keyAt) throws SQLException {
    for (int pass = 0; pass < 2; pass++) { // locks every value first, so the first claim takes them all, in order
      claimNew(claim, w, old, keyAt, pass == 0);
    }
  }

  private void claimNew(LookupClaim claim, LookupWork w, List<Object[]> old, int keyAt, boolean lockOnly) throws SQLException {
    for (int i = 0; w.type() == StatementType.UPDATE && i < w.lookups().size(); i++) {
      for (Object[] row : old) {
        Object raw = w.after(i, row[i]);
        String v = LookupValue.of(raw);
        boolean sameValue = v != null && v.equals(LookupValue.of(row[i]));
        boolean sameKey = w.keyAfter(row[keyAt]).equals(String.valueOf(row[keyAt]));
        if (v != null && !(sameValue && (sameKey || w.lookups().get(i).unique()))) {
          if (lockOnly) {
            claim.lock(w.lookups().get(i), v);
          } else {
            claimOne(claim, w, i, v, raw, w.keyAfter(row[keyAt]));
          }
        }
      }
    }
  }

  private void claimOne(LookupClaim claim, LookupWork w, int i, String v, Object raw, String key) throws SQLException {
    Lookup l = w.lookups().get(i);
    if (!claim.add(l, List.of(v), List.of(key)).isEmpty()) {
      settle(claim, w, l, v, raw, key, false, null, -1);
    }
  }

  /**
   * The entries the write leaves behind: {@code rekeyed} false, those whose row is gone (a DELETE's,
   * an UPDATE's changed values or keys); true, the unique values whose row only changed its key.
   */
  private static List<Entry> entries(LookupWork w, List<Object[]> old, int keyAt, boolean rekeyed) {
    List<Entry> found = new ArrayList<>();
    for (Object[] row : old) {
      String k = String.valueOf(row[keyAt]);
      String to = w.type() == StatementType.DELETE ? null : w.keyAfter(row[keyAt]);
      for (int i = 0; i < w.lookups().size(); i++) {
        String before = LookupValue.of(row[i]);
        boolean sameValue = to != null && java.util.Objects.equals(before, LookupValue.of(w.after(i, row[i])));
        boolean moved = sameValue && !to.equals(k) && w.lookups().get(i).unique();
        if (before != null && (rekeyed ? moved : !moved && !(sameValue && to.equals(k)))) {
          found.add(new Entry(i, before, row[i], k, to));
        }
      }
    }
    return found;
  }

  /** After the commit: deletes each entry whose row is gone, re-points each unique entry whose row changed its key. */
  private void settleAfter(LookupWork w, List<Entry> gone, List<Entry> rekeyed) throws SQLException {
    LookupCrashPoint.RELEASING.reached();
    for (Entry e : gone) {
      Lookup l = w.lookups().get(e.i());
      try (LookupClaim claim = LookupClaim.open(directory.store())) {
        if (claim.lock(l, e.v(), e.k()) && !owners.exists(w.table(), l.column(), e.raw(), e.k())) {
          claim.delete(l, e.v(), e.k());
        }
        claim.commit();
      }
      directory.lookups().forget(l, e.v());
    }
    for (Entry e : rekeyed) {
      Lookup l = w.lookups().get(e.i());
      try (LookupClaim claim = LookupClaim.open(directory.store())) {
        if (claim.lock(l, e.v(), e.k()) && owners.exists(w.table(), l.column(), e.raw(), e.to())) {
          claim.repoint(l, e.v(), e.to());
        }
        claim.commit();
      }
      directory.lookups().forget(l, e.v());
    }
  }
}
