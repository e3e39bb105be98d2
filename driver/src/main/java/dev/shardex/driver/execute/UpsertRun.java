package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.UpsertWork;
import dev.shardex.driver.sql.UpsertUpdate;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One execution of an upsert into a table with lookups (see {@link LookupUpserts} for the rules):
 * its claims, the rows it collides with under other keys ({@link Clash}), what it does to them, the
 * rows it leaves out of its own write, and the entries of the rows it deletes.
 */
final class UpsertRun {
  /** Row {@code row}'s value {@code v} (raw: {@code raw}) of unique lookup {@code i} is held by key {@code holder}. */
  record Clash(int row, int i, String v, Object raw, String holder) {}

  /** A clash's holder: its key as the table holds it, its shard and its row (lookup values, key), null when gone. */
  record Held(Clash clash, Object key, Integer shard, Object[] row) {}

  /** An entry whose row the upsert deletes: released once the delete commits, if no row took it meanwhile. */
  record Entry(Lookup l, String v, Object raw, String k) {}

  private final LookupWork w;
  private final UpsertWork u;
  private final TableDef def;
  private final String sql;
  private final Object[] params;
  private final boolean inTransaction;
  private final UpsertShards shards;
  private final LookupOwners owners;
  private final Directory directory;
  private final LookupWrites.KeyName keyName;
  /** Rows left out of the statement's own write: updated elsewhere (ON DUPLICATE KEY UPDATE) or skipped (IGNORE). */
  private final Set<Integer> skipped = new TreeSet<>();
  /** Rows (lookup values, key) a REPLACE deletes on other keys' shards. */
  private final List<Object[]> replaced = new ArrayList<>();
  /** The entries a REPLACE re-pointed from the rows it deletes to its own. */
  private final List<Held> repointed = new ArrayList<>();
  /** The rows the statement's rows collide with on their own shards. */
  private UpsertOwnRows own;
  private final UpsertTargets targets;
  /** What MySQL counts for the work done here, besides the statement's own write. */
  private long counted;

  UpsertRun(LookupWork w, String sql, Object[] params, boolean inTransaction, UpsertShards shards, LookupOwners owners,
      Directory directory, LookupWrites.KeyName keyName) {
    this.w = w;
    this.u = w.upsert();
    this.def = w.table();
    this.sql = sql;
    this.params = params;
    this.inTransaction = inTransaction;
    this.shards = shards;
    this.owners = owners;
    this.directory = directory;
    this.keyName = keyName;
    this.targets = new UpsertTargets(w, shards, verb());
  }

  String verb() {
    return u.replace() ? "REPLACE" : "INSERT ... ON DUPLICATE KEY UPDATE";
  }

  // ---- before the claim -------------------------------------------------------------------------

  /** Two rows giving one unique value under two keys: MySQL would let the second replace or update the first. */
  void refuseTwoKeys() throws SQLException {
    for (int i = 0; i < w.lookups().size(); i++) {
      Map<String, String> seen = new java.util.HashMap<>();
      for (int r = 0; w.lookups().get(i).unique() && r < w.keys().length; r++) {
        String v = LookupValue.of(w.rowValues()[r][i]);
        String k = w.keys()[r].toString();
        String before = v == null ? null : seen.putIfAbsent(LookupValue.folded(v), k);
        if (before != null && !before.equals(k)) {
          String why = !u.keyed()[i] ? "" : ", so the second row would " + (u.replace() ? "replace" : "update") + " the first one";
          throw ShardexError.UPSERT_LOOKUP.exception(verb(), def.name(), "gives " + w.lookups().get(i).column() + " '" + v
              + "' in two rows of different " + def.keyColumn() + " (" + before + " and " + k + ")" + why,
              "send one statement per row");
        }
      }
    }
  }

  /** The rows the statement's rows collide with under their own key, read before anything is written. */
  void readOwnRows() throws SQLException {
    own = UpsertOwnRows.read(w, shards, verb());
  }

  // ---- the claim --------------------------------------------------------------------------------

  /**
   * Claims every row's unique values; returns the clashes MySQL would resolve (the value is a
   * one-column unique key of the table). A clash with a lookup that is no key of the table is a
   * duplicate as for INSERT: an orphan entry is re-pointed, else 1062 (IGNORE: the row is skipped).
   */
  List<Clash> claimUnique(LookupClaim claim) throws SQLException {
    List<Clash> clashes = new ArrayList<>();
    for (int i = 0; i < w.lookups().size(); i++) {
      if (w.lookups().get(i).unique()) {
        for (Clash c : claim(claim, i)) {
          if (u.keyed()[c.i()]) {
            clashes.add(c);
          } else if (!skipped.contains(c.row())) {
            settleAsInsert(claim, c);
          }
        }
      }
    }
    clashes.removeIf(c -> skipped.contains(c.row()));
    return clashes;
  }

  /** Claims lookup {@code i} for every row not skipped that has a value; returns the values other keys hold. */
  private List<Clash> claim(LookupClaim claim, int i) throws SQLException {
    Lookup l = w.lookups().get(i);
    LookupWork.Claimable c = w.claimable(i, skipped);
    List<Integer> rows = c.rows();
    List<String> vs = c.values();
    List<String> ks = c.keys();
    List<Clash> clashes = new ArrayList<>();
    for (int at : vs.isEmpty() ? List.<Integer>of() : claim.add(l, vs, ks)) {
      String holder = claim.holder(l, vs.get(at));
      if (holder != null && !holder.equals(ks.get(at))) {
        clashes.add(new Clash(rows.get(at), i, vs.get(at), w.rowValues()[rows.get(at)][i], holder));
      }
    }
    return clashes;
  }

  private void settleAsInsert(LookupClaim claim, Clash c) throws SQLException {
    Lookup l = w.lookups().get(c.i());
    Object key = w.keys()[c.row()];
    if (!owners.exists(def, l.column(), c.raw(), c.holder())) {
      repoint(claim, c);
    } else if (w.ignore()) {
      skipped.add(c.row());
    } else {
      throw LookupRows.duplicate(def, l, c.v(), keyName.apply(def.name(), l.column()), c.holder(), key);
    }
  }

  private void repoint(LookupClaim claim, Clash c) throws SQLException {
    Lookup l = w.lookups().get(c.i());
    claim.repoint(l, c.v(), w.keys()[c.row()].toString());
    directory.lookups().forget(l, c.v());
  }

  // ---- the clashes, in the running transaction ----------------------------------------------------

  /**
   * Finds (and locks) each clash's row: a gone one was an orphan entry, re-pointed as INSERT does;
   * REPLACE deletes a live one and re-points its entry; ON DUPLICATE KEY UPDATE updates it instead
   * of inserting the row. Every refusal comes before the first change.
   */
  void settle(LookupClaim claim, List<Clash> clashes) throws SQLException {
    List<Held> live = new ArrayList<>();
    for (Clash c : clashes) {
      Object key = shards.key(def, c.holder());
      Integer shard = shards.shardOf(def, key);
      Object[] row = shard == null ? null : shards.lockRow(shard, def, w.lookups(), w.lookups().get(c.i()).column(), c.raw(), key);
      if (row == null) {
        repoint(claim, c);
      } else {
        live.add(new Held(c, key, shard, row));
      }
    }
    if (u.replace()) {
      replace(claim, live);
    } else {
      update(claim, live);
    }
  }

  private void replace(LookupClaim claim, List<Held> live) throws SQLException {
    if (inTransaction && !live.isEmpty()) {
      Held h = live.get(0);
      throw ShardexError.UPSERT_LOOKUP.exception("REPLACE", def.name(), "inside a transaction gives " + targets.describe(h)
          + ": replacing that row re-points the value's lookup entry before the transaction commits, and a rollback would"
          + " leave the row without it", "run the REPLACE in autocommit (Shardex then deletes and inserts atomically), or"
          + " DELETE that row and commit first");
    }
    for (Held h : live) {
      Lookup l = w.lookups().get(h.clash().i());
      long gone = shards.delete(h.shard(), def, l.column(), h.clash().raw(), h.key());
      counted += gone;
      if (gone > 0) {
        replaced.add(h.row());
      }
      repoint(claim, h.clash());
      repointed.add(h);
    }
  }

  private void update(LookupClaim claim, List<Held> live) throws SQLException {
    Map<Integer, List<Held>> byRow = new TreeMap<>();
    live.forEach(h -> byRow.computeIfAbsent(h.clash().row(), r -> new ArrayList<>()).add(h));
    Map<Integer, Held> updated = new TreeMap<>();
    for (Map.Entry<Integer, List<Held>> e : byRow.entrySet()) {
      Held target = targets.target(e.getKey(), e.getValue());
      if (target != null) {
        targets.refuseUpdate(e.getKey(), target);
        updated.put(e.getKey(), target);
      }
    }
    for (Map.Entry<Integer, Held> e : updated.entrySet()) {
      int r = e.getKey();
      Held h = e.getValue();
      Lookup l = w.lookups().get(h.clash().i());
      counted += shards.update(h.shard(), UpsertUpdate.of(sql, params, column -> inserted(r, column, h), def.name(),
          l.column(), h.clash().raw(), def.keyColumn(), h.key()));
      skipped.add(r);
    }
    for (int r : updated.keySet()) {
      release(claim, r, byRow.get(r));
    }
  }

  /** The inserted row's value of a column for {@code VALUES(col)}: refused when only a shard could compute it. */
  private Object inserted(int r, String column, Held h) throws SQLException {
    Object v = u.cell(r, column);
    if (v == UpsertWork.EXPRESSION || v == UpsertWork.ABSENT) {
      throw ShardexError.UPSERT_LOOKUP.exception(verb(), def.name(), "reads VALUES(" + column + ") for the row it collides"
          + " with on another shard (" + targets.describe(h) + "), and gives " + column + (v == UpsertWork.ABSENT
          ? " no value (its default)" : " as an expression"), "give " + column + " as a literal or a ? parameter");
    }
    return v;
  }

  /**
   * A row updated elsewhere is not inserted: its other unique values' entries, claimed for it, go,
   * unless a row the statement writes under the same key gives the value too, or a row of that key
   * on its shard has it.
   */
  private void release(LookupClaim claim, int r, List<Held> held) throws SQLException {
    String k = w.keys()[r].toString();
    for (int j = 0; j < w.lookups().size(); j++) {
      Lookup l = w.lookups().get(j);
      String v = LookupValue.of(w.rowValues()[r][j]);
      int lookup = j;
      boolean clashed = held.stream().anyMatch(h -> h.clash().i() == lookup);
      if (l.unique() && v != null && !clashed && !written(j, v, k, Set.of()) && claim.lock(l, v, k)
          && !owners.exists(def, l.column(), w.rowValues()[r][j], k)) {
        claim.delete(l, v, k);
        directory.lookups().forget(l, v);
      }
    }
  }

  // ---- the statement's own write, and after -----------------------------------------------------

  /**
   * The rows' commit failed after the claim's: each entry a REPLACE re-pointed goes back to the row
   * it deleted if that row is still there (the rows rolled back). Best effort: what it cannot
   * settle, {@code shardex lookups verify --repair} does.
   */
  void restoreRepointed() {
    for (Held h : repointed) {
      Lookup l = w.lookups().get(h.clash().i());
      String to = w.keys()[h.clash().row()].toString();
      try (LookupClaim claim = LookupClaim.open(directory.store())) {
        if (claim.lock(l, h.clash().v(), to) && owners.exists(def, l.column(), h.clash().raw(), h.clash().holder())) {
          claim.repoint(l, h.clash().v(), h.clash().holder());
        }
        claim.commit();
      } catch (SQLException e) {
        // the directory or the shard is what failed: lookups verify --repair settles it
      }
      directory.lookups().forget(l, h.clash().v());
    }
  }

  /** Claims the non-unique values of the rows it writes, then writes them (all but the skipped rows). */
  Outcome write(LookupClaim claim, RoutePlan plan, LookupWrites.Write write) throws SQLException {
    for (int i = 0; i < w.lookups().size(); i++) {
      if (!w.lookups().get(i).unique()) {
        claim(claim, i);
      }
    }
    RoutePlan rest = skipped.isEmpty() ? plan : LookupRows.without(plan, w.shards(), skipped);
    return rest == null ? Outcome.count(0, null) : write.run(rest);
  }

  /** The statement's count as MySQL gives it: its own write's plus the rows deleted or updated here. */
  long counted() {
    return counted;
  }

  /**
   * The entries that name no row once the write commits: a REPLACE's, of the rows it deleted, but
   * for those a row it wrote holds (a unique value now names that row's key; a non-unique one names
   * its key still); an ON DUPLICATE KEY UPDATE's, those its rows claimed for values the rows they
   * updated do not hold.
   */
  List<Entry> gone() {
    if (!u.replace()) {
      return own.unclaimed(skipped);
    }
    List<Entry> entries = new ArrayList<>();
    int keyAt = w.lookups().size();
    List<Object[]> deleted = new ArrayList<>(replaced);
    deleted.addAll(own.replaced(skipped));
    Set<Integer> replacedLater = own.replacedEarlier(skipped);
    for (Object[] row : deleted) {
      for (int j = 0; j < keyAt; j++) {
        String v = LookupValue.of(row[j]);
        if (v != null && !written(j, v, String.valueOf(row[keyAt]), replacedLater)) {
          entries.add(new Entry(w.lookups().get(j), v, row[j], String.valueOf(row[keyAt])));
        }
      }
    }
    return entries;
  }

  /** Whether a row the statement writes and keeps (not skipped, not replaced by a later one) holds the value. */
  private boolean written(int j, String v, String k, Set<Integer> replacedLater) {
    for (int r = 0; r < w.keys().length; r++) {
      String mine = LookupValue.of(w.rowValues()[r][j]);
      boolean sameKey = w.lookups().get(j).unique() || w.keys()[r].toString().equals(k);
      if (!skipped.contains(r) && !replacedLater.contains(r) && mine != null && sameKey
          && LookupValue.folded(mine).equals(LookupValue.folded(v))) {
        return true;
      }
    }
    return false;
  }
}
