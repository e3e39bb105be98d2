package dev.shardex.driver.execute;

import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.UpsertWork;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rows an upsert's rows collide with under their own key, on their own shard, which that
 * shard's REPLACE deletes or ON DUPLICATE KEY UPDATE updates. They are read before the write
 * (locked inside a transaction), so the entries that stop naming a row can go once the write
 * commits: those of the rows a REPLACE deletes, and those an ON DUPLICATE KEY UPDATE row claimed
 * for values the row it updates does not hold. A statement's row that a later row of the same key
 * collides with counts as such a row too.
 *
 * <p>Which statement row a row collides with is decided here by comparing values as the
 * directory's collation folds them. A miss leaves an extra entry, which reads tolerate (they
 * re-check the row) and {@code lookups verify --repair} removes; a false match only re-checks an
 * entry, which stays while a row holds it.
 */
final class UpsertOwnRows {
  private final LookupWork w;
  private final UpsertWork u;
  private final TableDef def;
  /** The columns read: the lookups', the shard key, then the other columns of unique keys. */
  private final List<String> columns;
  private final List<Object[]> found = new ArrayList<>();

  private UpsertOwnRows(LookupWork w) {
    this.w = w;
    this.u = w.upsert();
    this.def = w.table();
    this.columns = new ArrayList<>(UpsertShards.columns(def, w.lookups()));
    u.uniqueKeys().forEach(k -> k.stream().filter(c -> !columns.contains(c)).forEach(columns::add));
  }

  /** Reads, shard by shard, the rows of the statement's keys that share a unique key's values with one of its rows. */
  static UpsertOwnRows read(LookupWork w, UpsertShards shards, String verb) throws SQLException {
    UpsertOwnRows own = new UpsertOwnRows(w);
    Map<Integer, List<Integer>> byShard = new TreeMap<>();
    for (int r = 0; r < w.keys().length; r++) {
      byShard.computeIfAbsent(w.shards()[r], s -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<Integer, List<Integer>> e : byShard.entrySet()) {
      List<Object> binds = new ArrayList<>();
      List<String> any = new ArrayList<>();
      for (int r : e.getValue()) {
        String match = UpsertShards.match(w.upsert(), w.table(), r, w.keys()[r], binds, false, verb);
        if (match != null) {
          any.add(match);
        }
      }
      if (!any.isEmpty()) {
        own.found.addAll(shards.rows(e.getKey(), w.table(), own.columns, String.join(" OR ", any), binds));
      }
    }
    return own;
  }

  /**
   * REPLACE: the rows (lookup values, key) the shards' own REPLACE deletes: those read, and the
   * statement's own rows that a later row of it replaces ({@link #replacedEarlier}).
   */
  List<Object[]> replaced(Set<Integer> skipped) {
    int width = w.lookups().size() + 1;
    List<Object[]> rows = new ArrayList<>(found.stream().map(row -> Arrays.copyOf(row, width)).toList());
    replacedEarlier(skipped).forEach(r -> rows.add(Arrays.copyOf(asRead(r), width)));
    return rows;
  }

  /** The statement's rows (all but {@code skipped}) a later row of the same key collides with: that row replaces or updates them. */
  Set<Integer> replacedEarlier(Set<Integer> skipped) {
    Set<Integer> out = new java.util.TreeSet<>();
    for (int r = 0; r < w.keys().length; r++) {
      for (int later = r + 1; later < w.keys().length && !skipped.contains(r); later++) {
        if (!skipped.contains(later) && collides(asRead(r), later)) {
          out.add(r);
        }
      }
    }
    return out;
  }

  /**
   * ON DUPLICATE KEY UPDATE: the entries its rows claimed (all but {@code skipped}) for values the
   * row each one updates does not hold (a row read, or an earlier row of the statement), so no row
   * does once the update commits.
   */
  List<UpsertRun.Entry> unclaimed(Set<Integer> skipped) {
    List<UpsertRun.Entry> out = new ArrayList<>();
    for (Object[] row : found) {
      addUpdatedBy(row, 0, skipped, out);
    }
    for (int r = 0; r < w.keys().length; r++) {
      if (!skipped.contains(r)) {
        addUpdatedBy(asRead(r), r + 1, skipped, out);
      }
    }
    return out;
  }

  /** The unclaimed entries of the statement's rows from {@code from} on that update {@code row}. */
  private void addUpdatedBy(Object[] row, int from, Set<Integer> skipped, List<UpsertRun.Entry> out) {
    for (int r = from; r < w.keys().length; r++) {
      if (!skipped.contains(r) && collides(row, r)) {
        addUnclaimed(row, r, out);
      }
    }
  }

  /** Statement row r as the read gives a row: its values of the columns read. */
  private Object[] asRead(int r) {
    Object[] row = new Object[columns.size()];
    for (int c = 0; c < row.length; c++) {
      row[c] = columns.get(c).equals(def.keyColumn()) ? w.keys()[r] : u.cell(r, columns.get(c));
    }
    return row;
  }

  private void addUnclaimed(Object[] row, int r, List<UpsertRun.Entry> out) {
    for (int j = 0; j < w.lookups().size(); j++) {
      Object mine = w.rowValues()[r][j];
      if (mine != null && !same(row[j], mine)) {
        out.add(new UpsertRun.Entry(w.lookups().get(j), LookupValue.of(mine), mine, w.keys()[r].toString()));
      }
    }
  }

  /** Whether the row read has row r's key and all values of one of its unique keys. */
  private boolean collides(Object[] row, int r) {
    if (!same(row[w.lookups().size()], w.keys()[r])) {
      return false;
    }
    for (List<String> key : u.uniqueKeys()) {
      if (key.stream().allMatch(c -> same(row[columns.indexOf(c)], c.equals(def.keyColumn()) ? w.keys()[r] : u.cell(r, c)))) {
        return true;
      }
    }
    return false;
  }

  private static boolean same(Object stored, Object given) {
    if (unknown(stored) || unknown(given)) {
      return false;
    }
    return LookupValue.folded(LookupValue.of(stored)).equals(LookupValue.folded(LookupValue.of(given)));
  }

  private static boolean unknown(Object v) {
    return v == null || v == UpsertWork.EXPRESSION || v == UpsertWork.ABSENT;
  }
}
