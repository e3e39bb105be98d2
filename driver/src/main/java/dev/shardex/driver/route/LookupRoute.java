package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupValue;
import dev.shardex.directory.lookup.Lookups;
import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Routing by a lookup index: {@code WHERE id = ?} or {@code id IN (...)} on a SHARDED table with a
 * lookup on {@code id} and no shard-key predicate goes to the shards of the keys the entries name.
 * The statement is sent unchanged, so it re-checks the value on the row: an entry left behind by a
 * crash or a rolled-back write routes to a shard where no row matches, and costs only that.
 *
 * <p>A unique value's entry comes from this driver's cache ({@link Lookups}); a route that used a
 * cached entry and found no row is run once more with the entry read from the directory
 * ({@link #recheck}), so a stale entry (deleted or re-pointed since it was cached, before this
 * driver's poll saw the change) can delay an answer, never change it. IN lists and non-unique
 * values are read from the directory, one round trip per statement.
 */
public final class LookupRoute {
  private LookupRoute() {}

  /**
   * The columns of unique lookups: a one-column PRIMARY or UNIQUE key on one is unique across
   * shards, so REPLACE, ON DUPLICATE KEY UPDATE and INSERT IGNORE into the table are exact (the row a
   * value collides with is found through its entry, see LookupUpserts).
   */
  static Set<String> uniqueColumns(List<Lookup> lookups) {
    Set<String> columns = new java.util.HashSet<>();
    for (Lookup l : lookups) {
      if (l.unique()) {
        columns.add(l.column());
      }
    }
    return columns;
  }

  /**
   * ON DUPLICATE KEY UPDATE that assigns a looked-up column may change an existing row's value
   * without Shardex knowing which row: refused, unless the assignment cannot change it ({@code col =
   * col}, or {@code col = VALUES(col)} when every unique key of the table contains {@code col}, so
   * the row it collides with already has that value). Its INSERT part keeps the lookups like any INSERT.
   */
  static void refuseUpdatingUpsert(RouteTemplate t, TableDef def, List<Lookup> lookups, TableSchemas.Schema schema)
      throws SQLException {
    for (Lookup l : lookups) {
      ValueSource set = t.assignments().get(l.column());
      if (set != null && !UpsertWork.keeps(set, l.column(), def.name())
          && !(UpsertWork.insertedValue(set, l.column()) && inEveryKey(schema, l.column()))) {
        throw dev.shardex.vocabulary.ShardexError.LOOKUP_VALUE.exception("INSERT ... ON DUPLICATE KEY UPDATE", def.name(),
            l.column(), "a new value for the row it collides with", l.column(),
            "UPDATE that row by its key or id instead, which keeps the lookup");
      }
    }
  }

  private static boolean inEveryKey(TableSchemas.Schema schema, String column) {
    return schema.known() && !schema.uniqueKeys().isEmpty()
        && schema.uniqueKeys().values().stream().allMatch(k -> k.contains(column));
  }

  /** Whether a write must keep lookup indexes (batches and one-trip multi-statements cannot). */
  public static boolean maintains(RouteTemplate t, Directory dir) throws SQLException {
    if (!t.type().isWrite() || t.targetTable() == null) {
      return false;
    }
    TableDef def = dir.table(t.targetTable().name());
    return def != null && def.kind() == TableKind.SHARDED && !dir.lookups().of(def.name()).isEmpty();
  }

  /**
   * Whether the statement names a SHARDED table with lookups: a multi-statement text with such a
   * part runs part by part (each write keeps its lookups, each read gets its recheck).
   */
  public static boolean involves(RouteTemplate t, Directory dir) throws SQLException {
    for (var ref : t.tables()) {
      TableDef def = dir.table(ref.name());
      if (def != null && def.kind() == TableKind.SHARDED && !dir.lookups().of(def.name()).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The shards of the keys the entries of the lookup predicate's values name (none: any one shard, no row). */
  static List<Integer> shards(Lookup l, List<ValueSource> sources, Object[] values, TableDef def, KeyType type,
      RouteContext ctx, boolean write) throws SQLException {
    TreeSet<Integer> shards = new TreeSet<>();
    for (String k : keys(l, sources, values, def, ctx)) {
      Object key = type.canonical(k, def.name(), def.keyColumn());
      Placement p = write && !ctx.dryRun() ? ctx.write(def.keySpace(), key, false) : ctx.read(def.keySpace(), key);
      if (p != null) {
        shards.add(p.shardId());
      }
    }
    return List.copyOf(shards);
  }

  private static List<String> keys(Lookup l, List<ValueSource> sources, Object[] values, TableDef def, RouteContext ctx)
      throws SQLException {
    List<String> vs = new ArrayList<>(sources.size());
    for (ValueSource s : sources) {
      String v = LookupValue.of(Router.valueOf(s, values, def.name(), l.column()));
      if (v != null) {
        vs.add(v); // NULL matches no row
      }
    }
    Lookups lookups = ctx.directory().lookups();
    if (vs.isEmpty()) {
      return List.of();
    }
    if (!l.unique() || vs.size() > 1) {
      return lookups.keys(l, vs);
    }
    if (lookups.cached(l, vs.get(0))) {
      ctx.usedCachedLookup(l, vs.get(0));
    }
    String k = lookups.cachedKey(l, vs.get(0));
    return k == null ? List.of() : List.of(k);
  }

  /**
   * Whether a statement routed by a cached lookup entry found no row (an empty result, no row
   * changed): the caller drops the entries it used ({@link RouteContext#forgetCachedLookups}) and
   * runs it again, routed by the directory's entries.
   */
  public static boolean recheck(RouteContext ctx, Outcome out) {
    if (!ctx.routedByCachedLookup()) {
      return false;
    }
    if (out.resultSet() == null) {
      return out.updateCount() == 0;
    }
    try {
      return !out.resultSet().isBeforeFirst();
    } catch (SQLException e) {
      return false; // a streamed result cannot tell before it is read
    }
  }
}
