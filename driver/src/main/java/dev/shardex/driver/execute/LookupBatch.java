package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.LookupClaim;
import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.RoutePlan;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The lookup entries of a JDBC batch of INSERTs into one table (Hibernate's
 * {@code hibernate.jdbc.batch_size}), claimed as one, as one INSERT's ({@link LookupWrites}): an
 * autocommit claim locks every value of every row of every batch entry (one statement), adds their
 * entries (one multi-row {@code INSERT IGNORE} per lookup) and holds the locks while the batch runs
 * on its shards and commits: two directory round trips for the whole batch, the release off the
 * caller's path.
 *
 * <p>Duplicates as one server's batch reports them (Connector/J goes on after a failed entry): an
 * entry with a row whose unique value another key holds, or an earlier entry of the batch took,
 * fails with 1062 and writes none of its rows; the others run; INSERT IGNORE skips the row. So that
 * the claim holds the entries of exactly the rows that will be written, a claim that found a
 * duplicate deletes the entries it added for the failed entries' rows (under their locks, {@link
 * LookupRows#undo}) and is made again without them (each round fails at least one entry more, so
 * it ends; a batch without duplicates claims once). An entry that failed frees
 * its values for the entries after it, as on one server, so the batch's own duplicates are found
 * again each round, among the entries still in it.
 */
public final class LookupBatch implements AutoCloseable {
  private final LookupClaim claim;
  private final RoutePlan[] plans;
  private final SQLException[] failures;

  private LookupBatch(LookupClaim claim, int entries) {
    this.claim = claim;
    this.plans = new RoutePlan[entries];
    this.failures = new SQLException[entries];
  }

  /**
   * Claims the entries of the batch: {@code works.get(i)} and {@code plans.get(i)} are entry i's
   * lookup work and route (entries of one template: one table, one kind of INSERT).
   */
  public static LookupBatch claim(LookupWrites writes, Directory directory, List<LookupWork> works, List<RoutePlan> plans)
      throws SQLException {
    LookupBatch batch = new LookupBatch(LookupClaim.autocommit(directory.store()), works.size());
    try {
      batch.claimAll(writes, works, plans);
      return batch;
    } catch (SQLException | RuntimeException e) {
      LookupWork all = Rows.of(works, new SQLException[works.size()]).work();
      if (all != null) {
        LookupRows.undo(batch.claim, all, Set.of(), writes.owners(), directory, e); // nothing is written yet
      }
      batch.close();
      throw e;
    }
  }

  private void claimAll(LookupWrites writes, List<LookupWork> works, List<RoutePlan> routes) throws SQLException {
    SQLException[] held = new SQLException[works.size()];
    works.stream().filter(java.util.Objects::nonNull).forEach(w -> LookupRows.lockAll(claim, w)); // held across the rounds
    while (true) {
      System.arraycopy(held, 0, failures, 0, held.length);
      takenInBatch(writes, works);
      Rows rows = Rows.of(works, failures);
      Map<Integer, SQLException> duplicates = new TreeMap<>();
      Set<Integer> skipped = rows.work() == null ? Set.of() : writes.claim(claim, rows.work(), duplicates);
      if (duplicates.isEmpty()) {
        keep(works, routes, rows, skipped);
        return;
      }
      for (Map.Entry<Integer, SQLException> d : duplicates.entrySet()) {
        int entry = rows.entry()[d.getKey()];
        held[entry] = held[entry] != null ? held[entry] : d.getValue(); // an entry's first duplicate row names it
      }
      LookupWork failed = Rows.of(works, newlyFailed(held)).work();
      if (failed != null) {
        writes.undo(claim, failed); // their entries go, so later entries of the batch may take their values
      }
    }
  }

  /** A mask for {@link Rows#of}: null for the entries that failed in this round's claim, set for the others. */
  private SQLException[] newlyFailed(SQLException[] held) {
    SQLException[] others = new SQLException[held.length];
    for (int e = 0; e < held.length; e++) {
      others[e] = held[e] != null && failures[e] == null ? null : KEPT;
    }
    return others;
  }

  @SuppressWarnings("StaticAssignmentOfThrowable") // a mask marker compared by identity, never thrown
  private static final SQLException KEPT = new SQLException("not failed in this round");

  /**
   * Fails each INSERT entry with a unique value that an earlier entry still in the batch (or an
   * earlier row of its own) has under another key, as one server running the entries in order
   * would; INSERT IGNORE entries are left to the claim, which skips such a row. Done before the
   * claim, so that every duplicate the claim finds is held outside the batch: no failure it finds
   * depends on another entry's.
   */
  private void takenInBatch(LookupWrites writes, List<LookupWork> works) throws SQLException {
    Map<String, String> taken = new HashMap<>();
    for (int e = 0; e < works.size(); e++) {
      LookupWork w = works.get(e);
      if (w == null || w.ignore() || failures[e] != null) {
        continue;
      }
      Map<String, String> own = new HashMap<>();
      failures[e] = firstTaken(writes, w, taken, own);
      if (failures[e] == null) {
        taken.putAll(own);
      }
    }
  }

  /** The 1062 of the first unique value of {@code w} that {@code taken} or an earlier row of {@code w} has under another key. */
  private static SQLException firstTaken(LookupWrites writes, LookupWork w, Map<String, String> taken, Map<String, String> own)
      throws SQLException {
    for (int r = 0; r < w.keys().length; r++) {
      for (int i = 0; i < w.lookups().size(); i++) {
        String v = LookupValue.of(w.rowValues()[r][i]);
        if (v == null || !w.lookups().get(i).unique()) {
          continue;
        }
        String id = i + ":" + LookupValue.folded(v);
        String key = w.keys()[r].toString();
        String holder = taken.containsKey(id) ? taken.get(id) : own.get(id);
        if (holder != null && !holder.equals(key)) {
          return writes.duplicate(w, w.lookups().get(i), v, holder, key);
        }
        own.put(id, key);
      }
    }
    return null;
  }

  /** Each entry's route without the rows INSERT IGNORE skips; none for a failed entry or one with no row left. */
  private void keep(List<LookupWork> works, List<RoutePlan> routes, Rows rows, Set<Integer> skipped) {
    for (int e = 0; e < plans.length; e++) {
      if (failures[e] != null) {
        continue;
      }
      Set<Integer> own = new TreeSet<>();
      for (int r : skipped) {
        if (rows.entry()[r] == e) {
          own.add(r - rows.first()[e]);
        }
      }
      plans[e] = own.isEmpty() ? routes.get(e) : LookupRows.without(routes.get(e), works.get(e).shards(), own);
    }
  }

  /** Entry i's route, without its skipped rows; null when it runs nothing (it failed, or INSERT IGNORE skips every row). */
  public RoutePlan plan(int i) {
    return plans[i];
  }

  /** Why entry i fails (its 1062), or null. */
  public SQLException failure(int i) {
    return failures[i];
  }

  /** Ends the claim: its values' locks are released, off the caller's path. */
  @Override
  public void close() {
    claim.close();
  }

  /**
   * The rows of the entries that have not failed, as one INSERT's: {@code entry[r]} is the batch
   * entry of row r, {@code first[e]} the first row of entry e; {@code work} is null when no row is left.
   */
  private record Rows(LookupWork work, int[] entry, int[] first) {
    static Rows of(List<LookupWork> works, SQLException[] failed) {
      List<Object> keys = new ArrayList<>();
      List<Integer> shards = new ArrayList<>();
      List<Object[]> values = new ArrayList<>();
      List<Integer> entries = new ArrayList<>();
      int[] first = new int[works.size()];
      LookupWork any = null;
      for (int e = 0; e < works.size(); e++) {
        LookupWork w = works.get(e);
        first[e] = keys.size();
        if (w == null || failed[e] != null) {
          continue;
        }
        any = w;
        for (int r = 0; r < w.keys().length; r++) {
          keys.add(w.keys()[r]);
          shards.add(w.shards()[r]);
          values.add(w.rowValues()[r]);
          entries.add(e);
        }
      }
      LookupWork all = any == null ? null : new LookupWork(any.type(), any.table(), any.lookups(), keys.toArray(),
          shards.stream().mapToInt(Integer::intValue).toArray(), values.toArray(new Object[0][]), null, null, any.ignore(), null);
      return new Rows(all, entries.stream().mapToInt(Integer::intValue).toArray(), first);
    }
  }
}
