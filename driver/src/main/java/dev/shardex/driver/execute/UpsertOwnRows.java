package dev.shardex.driver.execute;

import dev.shardex.directory.LookupValue;
import dev.shardex.directory.TableDef;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.UpsertWork;
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
 * for values the row it updates does not hold.
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

  /** REPLACE: the rows (lookup values, key) the shards' own REPLACE deletes. */
  List<Object[]> replaced() {
    int width = w.lookups().size() + 1;
    return found.stream().map(row -> Arrays.copyOf(row, width)).toList();
  }

  /**
   * ON DUPLICATE KEY UPDATE: the entries its rows claimed (all but {@code skipped}) for values the
   * row each one updates does not hold, so no row does once the update commits.
   */
  List<UpsertRun.Entry> unclaimed(Set<Integer> skipped) {
    List<UpsertRun.Entry> out = new ArrayList<>();
    for (Object[] row : found) {
      for (int r = 0; r < w.keys().length; r++) {
        if (!skipped.contains(r) && collides(row, r)) {
          addUnclaimed(row, r, out);
        }
      }
    }
    return out;
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
    if (stored == null || given == null || given == UpsertWork.EXPRESSION || given == UpsertWork.ABSENT) {
      return false;
    }
    return LookupValue.folded(LookupValue.of(stored)).equals(LookupValue.folded(LookupValue.of(given)));
  }
}
