package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.SelectShape;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.UnionSplit;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.driver.sql.WindowRule;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.List;

/**
 * Routes one SELECT, UPDATE or DELETE.
 *
 * <p>Each SHARDED table reference gets the key values of its tightest key predicate. Join
 * equalities between key columns of one key space glue references into components: rows of a
 * component live together, so a component goes where its keys live, or to every shard when it has
 * no key. Two components are only allowed when both have keys on the same single shard. SINGLE and
 * unknown tables pin the statement to their home shard; GLOBAL tables are everywhere.
 */
final class QueryRoute {
  private static final List<Integer> ALL = QueryShards.ALL;

  private final RouteTemplate t;
  private final Object[] values;
  private final RouteContext ctx;
  private final Directory dir;
  private final QueryRefs refs;
  private final QueryShards where;

  QueryRoute(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    this.t = t;
    this.values = values;
    this.ctx = ctx;
    this.dir = ctx.directory();
    this.refs = new QueryRefs(t, dir);
    this.where = new QueryShards(refs, values, ctx);
  }

  RoutePlan plan() throws SQLException {
    boolean write = t.type() == StatementType.UPDATE || t.type() == StatementType.DELETE;
    TableDef target = t.target() < 0 ? null : refs.defs[t.target()];
    if (write && target != null && target.kind() == TableKind.GLOBAL) {
      return globalWrite(target);
    }
    List<Integer> shards;
    try {
      shards = where.shardsFor(-1, write);
    } catch (QueryShards.Apart e) {
      return RoutePlan.join(); // its tables (components, UNION branches, a SINGLE table) live apart: a cross-shard plan
    }
    if (write && target != null && target.kind() == TableKind.SHARDED) {
      checkKeyChange(target, shards);
      List<dev.shardex.directory.lookup.Lookup> lookups = dir.lookups().of(target.name());
      if (!lookups.isEmpty()) {
        ctx.lookupWork(LookupWork.change(t, target, lookups, values, dir.keySpace(target.keySpace()).keyType()));
      }
      if (shards == ALL) {
        if (!ctx.scatterWrites()) {
          String verb = t.type().name();
          throw ShardexError.NO_KEY_WRITE.exception(verb, target.name(), target.keyColumn(), target.keyColumn());
        }
      }
    }
    List<Integer> targets = shards == ALL ? List.copyOf(dir.shards().keySet()) : shards;
    if (write && t.writeLimit() && targets.size() > 1) {
      throw ShardexError.CROSS_SHARD.exception(t.type() + " with ORDER BY/LIMIT on " + target.name(),
          Router.join(targets), "a LIMIT cannot be split across shards exactly",
          shards == ALL ? "add the key to the WHERE clause" : "give keys that live on one shard");
    }
    if (targets.isEmpty()) {
      targets = List.of(Router.anyReadable(ctx));
    }
    if (!write && shards == ALL) {
      markScatter();
    }
    if (write) {
      return withInSplit(RoutePlan.of(Fanout.SUM, targets, true), targets);
    }
    if (targets.size() > 1) {
      if (crossShardSelect(write) && t.shape().needsMerge() != null && UnionSplit.topLevel(t)) {
        return RoutePlan.join(); // a UNION a concatenation gets wrong: each branch runs apart, combined on one shard
      }
      try {
        refuseRepeatedOuterRows(targets);
        refuseShardedOnlyInSubquery(targets);
      } catch (SQLException e) {
        if (crossShardSelect(write)) {
          return RoutePlan.join(); // the executor tries to run its subqueries first, or the outer join on one shard
        }
        throw e;
      }
      SelectShape shape = keyGroupedExact() ? t.shape() : t.shape().withNested();
      String merge = shape.needsMerge();
      if (merge != null && shape.mergeable()) {
        return RoutePlan.of(Fanout.MERGE, targets, false);
      }
      if (merge != null && !shape.union() && crossShardSelect(write)) {
        return RoutePlan.join(); // a derived table or CTE to read first (jdbc.DerivedQuery), else refused there
      }
      if (merge != null) {
        throw ShardexError.CROSS_SHARD.exception("SELECT", Router.join(targets),
            "its " + shape.unmergeable() + " needs a cross-shard merge, which this version does not do",
            "add the key (key = ? or key IN (...) on one shard) to route it to one shard");
      }
    }
    return withInSplit(RoutePlan.of(Fanout.CONCAT, targets, false), targets);
  }

  /** A SELECT that a cross-shard plan may answer when its tables live apart (not a locking read). */
  private boolean crossShardSelect(boolean write) {
    return crossShardSelect(t, ctx, write);
  }

  static boolean crossShardSelect(RouteTemplate t, RouteContext ctx, boolean write) {
    return !write && t.type() == StatementType.SELECT && !t.shape().lockingRead() && ctx.crossShardSteps();
  }

  /**
   * Whether every derived table that groups does so by a shard key of its own scope (so each group is
   * on one shard), and every window of a derived table is partitioned by one (each partition on one shard).
   */
  private boolean keyGroupedExact() {
    return refs.allKeyed(t.shape().keyGrouped());
  }

  /**
   * Whether the top-level SELECT's window functions may run on each shard of a read on several: each
   * is partitioned by a shard key ({@link QueryRefs#allKeyed}); with the top level's key columns to
   * name otherwise. {@link WindowRule#NONE} when it has none.
   */
  static WindowRule windows(RouteTemplate t, Directory dir) throws SQLException {
    if (t.shape().windows().isEmpty()) {
      return WindowRule.NONE;
    }
    QueryRefs refs = new QueryRefs(t, dir);
    java.util.Set<String> keys = new java.util.TreeSet<>();
    for (int i = 0; i < refs.defs.length; i++) {
      if (t.tables().get(i).scope() == 0 && refs.defs[i] != null && refs.defs[i].kind() == TableKind.SHARDED) {
        keys.add(refs.defs[i].name() + "." + refs.defs[i].keyColumn());
      }
    }
    return new WindowRule(refs.allKeyed(t.shape().windows()), String.join(", ", keys));
  }

  /**
   * A key-less read of SHARDED tables: marked, so a move's copy on a shard that does not own the
   * key yet (or its source after the flip) is hidden from it, and counted once.
   */
  private void markScatter() throws SQLException {
    java.util.Map<String, String> keyColumns = new java.util.HashMap<>();
    String keySpace = null;
    for (TableDef def : refs.defs) {
      if (def != null && def.kind() == TableKind.SHARDED) {
        keySpace = keySpace == null ? def.keySpace() : keySpace;
        if (def.keySpace().equals(keySpace)) {
          keyColumns.put(def.name().toLowerCase(java.util.Locale.ROOT), def.keyColumn());
        }
      }
    }
    if (keySpace != null) {
      ctx.scatter(keySpace, keyColumns, dir.keySpace(keySpace).keyType() == KeyType.BIGINT);
    }
  }

  /** Each shard gets only its own keys of the IN list that spread the statement over several shards. */
  private RoutePlan withInSplit(RoutePlan plan, List<Integer> targets) {
    String column = where.splitColumn;
    if (column == null || targets.size() < 2 || !oneKeyPredicateOn(column)) {
      return plan; // not one clear IN list on the key: every shard gets the statement whole (still exact)
    }
    int[] valueShards = where.splitShards;
    java.util.Map<Integer, int[]> keep = new java.util.TreeMap<>();
    int[] counts = new int[targets.size()];
    for (int shard : valueShards) {
      int at = targets.indexOf(shard);
      if (at >= 0) {
        counts[at]++;
      }
    }
    for (int i = 0; i < targets.size(); i++) {
      if (counts[i] == 0) {
        return plan;
      }
      int[] mine = new int[counts[i]];
      int n = 0;
      for (int v = 0; v < valueShards.length; v++) {
        if (valueShards[v] == targets.get(i)) {
          mine[n++] = v;
        }
      }
      keep.put(targets.get(i), mine);
    }
    return plan.withInSplit(new RoutePlan.InSplit(column, valueShards.length, keep));
  }

  private boolean oneKeyPredicateOn(String column) {
    int n = 0;
    for (dev.shardex.driver.sql.KeyPredicate k : t.keys()) {
      n += k.column().column().equals(column) ? 1 : 0;
    }
    return n == 1;
  }

  /**
   * On several shards, an outer join that keeps every row of a GLOBAL table (present on every
   * shard) against a SHARDED table would return the GLOBAL rows that found no match once per shard.
   */
  private void refuseRepeatedOuterRows(List<Integer> targets) throws SQLException {
    boolean shardedInner = false;
    String keptGlobal = null;
    for (int i = 0; i < refs.defs.length; i++) {
      TableDef d = refs.defs[i];
      boolean inner = t.tables().get(i).nullSupplying();
      shardedInner |= inner && d != null && d.kind() == TableKind.SHARDED;
      if (!inner && d != null && d.kind() == TableKind.GLOBAL) {
        keptGlobal = d.name();
      }
    }
    if (shardedInner && keptGlobal != null) {
      throw ShardexError.CROSS_SHARD.exception("SELECT", Router.join(targets),
          "its outer join keeps every row of GLOBAL table " + keptGlobal + ", which each shard would return",
          "add the key, or join the other way (SHARDED LEFT JOIN GLOBAL)");
    }
  }

  /**
   * On several shards, a read whose result rows come only from GLOBAL tables (or no table) while a
   * SHARDED table sits in a scalar, IN or EXISTS subquery would return every row once per shard,
   * each computed from one shard's part of the SHARDED table.
   */
  private void refuseShardedOnlyInSubquery(List<Integer> targets) throws SQLException {
    java.util.Map<Integer, String> innerOnly = new java.util.TreeMap<>(); // per top-level UNION branch
    java.util.Set<Integer> rowSharded = new java.util.HashSet<>();
    for (int i = 0; i < refs.defs.length; i++) {
      if (refs.defs[i] != null && refs.defs[i].kind() == TableKind.SHARDED) {
        int branch = t.tables().get(i).branch();
        if (t.shape().rowScope(t.tables().get(i).scope())) {
          rowSharded.add(branch);
        } else {
          innerOnly.putIfAbsent(branch, refs.defs[i].name());
        }
      }
    }
    innerOnly.keySet().removeAll(rowSharded);
    String inner = innerOnly.isEmpty() ? null : innerOnly.values().iterator().next();
    if (inner != null) {
      throw ShardexError.CROSS_SHARD.exception("SELECT", Router.join(targets),
          "its SHARDED table " + inner + " is read only inside a subquery, so each shard would answer the whole query"
              + " from its own part of " + inner,
          "give the key of " + inner + " in the subquery, or run the subquery first and pass its result");
    }
  }

  /** For INSERT ... SELECT: where the SELECT part (every table but the target) can run; null if nowhere specific. */
  RoutePlan sourcePlan() throws SQLException {
    List<Integer> shards = where.shardsFor(t.target(), false);
    if (shards == ALL) {
      return RoutePlan.of(Fanout.CONCAT, List.copyOf(dir.shards().keySet()), false);
    }
    return shards.isEmpty() ? null : RoutePlan.of(Fanout.CONCAT, shards, false);
  }

  /**
   * For an INSERT ... SELECT that copies {@code source} into the key of SHARDED table {@code target}:
   * when {@code source} is the key of a SHARDED table the SELECT reads, of the same key space, and the
   * SELECT reads the keys of one shard, that shard (every row goes where it comes from); else null.
   * The keys are routed as written ones (guarded against a move while the statement runs).
   */
  RoutePlan colocated(dev.shardex.driver.sql.ColumnRef source, TableDef target) throws SQLException {
    int ref = refs.resolve(source);
    if (ref < 0 || ref == t.target() || !refs.defs[ref].keySpace().equals(target.keySpace())) {
      return null;
    }
    List<Integer> shards = where.shardsFor(t.target(), true);
    return shards == ALL || shards.size() != 1 ? null : RoutePlan.one(shards.get(0), true);
  }

  private RoutePlan globalWrite(TableDef target) throws SQLException {
    for (int i = 0; i < refs.defs.length; i++) {
      if (refs.defs[i] != null && refs.defs[i].kind() == TableKind.SHARDED) {
        throw ShardexError.MULTI_TABLE_WRITE.exception(t.type().name(), target.name() + " (GLOBAL) and " + refs.defs[i].name());
      }
    }
    return RoutePlan.of(Fanout.REPLICATE, List.copyOf(dir.shards().keySet()), true);
  }

  private void checkKeyChange(TableDef target, List<Integer> shards) throws SQLException {
    ValueSource set = t.assignments().get(target.keyColumn());
    if (set == null) {
      return;
    }
    if (shards == ALL) {
      throw ShardexError.KEY_SET_WITHOUT_KEY.exception(target.name(), target.keyColumn(), target.keyColumn());
    }
    if (shards.isEmpty()) {
      return; // no row has the current key: nothing moves
    }
    Router.checkKeyStays(target, set, values, shards, ctx);
  }

}
