package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.MysqlError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A write's rows as lookup maintenance sees them: the plan without the rows INSERT IGNORE skips,
 * MySQL's duplicate-key error, and whether a failed write may have left rows behind.
 */
final class LookupRows {
  private LookupRows() {}

  /**
   * Runs the write inside its claim, held when in autocommit ({@link HeldWrites}). When it fails,
   * the claim still commits if rows may be on a shard all the same, so no committed row goes
   * without its entry (an extra one is harmless). Held rows roll back with the hold, so only a
   * write that is not held counts: inside a transaction, a plan of several shards (some may have
   * run, and the transaction goes on), or an error that is not its one shard's refusal of the
   * statement (a lost connection, a timeout).
   */
  static Outcome written(LookupClaim claim, HeldWrites held, LookupWrites.Write write, RoutePlan plan) throws SQLException {
    try {
      return held.run(write, plan);
    } catch (SQLException | RuntimeException e) {
      if (held == HeldWrites.NONE && (plan.shards().size() > 1 || !refused(e))) {
        keep(claim, e);
      }
      throw e;
    }
  }

  /** Commits the claim after a failed write; a failure to commit joins the write's error. */
  static void keep(LookupClaim claim, Throwable failure) {
    try {
      claim.commit();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /** Queues the lock of every value the write's rows give (taken by the claim's next statement, in order). */
  static void lockAll(LookupClaim claim, LookupWork w) {
    for (int i = 0; i < w.lookups().size(); i++) {
      for (String v : w.claimable(i, Set.of()).values()) {
        claim.lock(w.lookups().get(i), v);
      }
    }
  }

  /**
   * After a claim or a write that left no row: deletes each entry the claim added for the rows,
   * unless a row with the value under that key is there (an entry that was there before, a re-run
   * seed's). Only while the claim holds every value's lock (else it added nothing: its first
   * statement takes them all), so no other writer's entry in flight is taken for its own, and only
   * when it added an entry (a plain duplicate costs no probe). A
   * failure to undo joins the write's error and leaves an extra entry, which reads tolerate.
   */
  static void undo(LookupClaim claim, LookupWork w, Set<Integer> skipped, LookupOwners owners, Directory directory,
      Throwable failure) {
    for (int i = 0; claim.locked() && claim.added() > 0 && i < w.lookups().size(); i++) {
      Lookup l = w.lookups().get(i);
      LookupWork.Claimable c = w.claimable(i, skipped);
      for (int at = 0; at < c.rows().size(); at++) {
        try {
          if (!owners.exists(w.table(), l.column(), w.rowValues()[c.rows().get(at)][i], c.keys().get(at))) {
            claim.delete(l, c.values().get(at), c.keys().get(at));
            directory.lookups().forget(l, c.values().get(at));
          }
        } catch (SQLException e) {
          failure.addSuppressed(e);
        }
      }
    }
  }

  /** Whether one server refused the statement as a whole: a constraint, data, syntax or access error, a deadlock or lock wait. */
  static boolean refused(Throwable e) {
    if (!(e instanceof SQLException s) || ErrorKind.of(s) != ErrorKind.DATABASE) {
      return false;
    }
    return ErrorKind.statementFault(s) || ErrorKind.transientLock(s);
  }

  /** The plan without the skipped rows (each shard keeps its others); null when no row is left. */
  static RoutePlan without(RoutePlan plan, int[] rowShards, Set<Integer> skipped) {
    Map<Integer, List<Integer>> kept = new TreeMap<>();
    for (int r = 0; r < rowShards.length; r++) {
      if (!skipped.contains(r)) {
        kept.computeIfAbsent(rowShards[r], s -> new ArrayList<>()).add(r);
      }
    }
    if (kept.isEmpty()) {
      return null;
    }
    Map<Integer, int[]> rows = new TreeMap<>();
    kept.forEach((shard, list) -> rows.put(shard, list.stream().mapToInt(Integer::intValue).toArray()));
    return new RoutePlan(Fanout.SUM, List.copyOf(rows.keySet()), true, null, List.of(), plan.guards(), Map.copyOf(rows),
        plan.fill(), null);
  }

  /**
   * The error one server gives for a duplicate: SQLState 23000, vendor code 1062, its text; the
   * cause says where the row that holds the value lives.
   */
  static SQLException duplicate(TableDef def, Lookup l, String v, String keyName,
      String holder, Object key) {
    SQLException e = MysqlError.DUPLICATE_ENTRY.exception("Duplicate entry '" + v + "' for key '" + keyName + "'");
    e.initCause(new IllegalStateException("Shardex: lookup " + def.name() + "." + l.column() + " is unique and value '" + v
        + "' belongs to the row of " + def.keyColumn() + " " + holder + " (this row's " + def.keyColumn() + " is " + key
        + "); change the value, or delete that row first"));
    return e;
  }
}
