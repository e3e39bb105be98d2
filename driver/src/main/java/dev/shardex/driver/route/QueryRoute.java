package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.KeyType;
import dev.shardex.directory.Placement;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import dev.shardex.driver.sql.ColumnLink;
import dev.shardex.driver.sql.ColumnRef;
import dev.shardex.driver.sql.KeyPredicate;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.SelectShape;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.TableRef;
import dev.shardex.driver.sql.ValueSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

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
  private static final List<Integer> ALL = null;

  private final RouteTemplate t;
  private final Object[] values;
  private final RouteContext ctx;
  private final Directory dir;
  private final TableDef[] defs;
  private final List<ValueSource>[] keyValues;
  private final int[] parent;
  /** The key IN list that decided a multi-shard component: its column, values and each value's shard. */
  private String splitColumn;
  private int[] splitShards;

  @SuppressWarnings("unchecked")
  QueryRoute(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    this.t = t;
    this.values = values;
    this.ctx = ctx;
    this.dir = ctx.directory();
    int n = t.tables().size();
    this.defs = new TableDef[n];
    this.keyValues = new List[n];
    this.parent = new int[n];
    for (int i = 0; i < n; i++) {
      defs[i] = dir.table(t.tables().get(i).name());
      parent[i] = i;
    }
    for (ColumnLink link : t.links()) {
      int a = resolve(link.left());
      int b = resolve(link.right());
      if (a >= 0 && b >= 0) {
        if (!defs[a].keySpace().equals(defs[b].keySpace())) {
          throw ShardexError.CROSS_KEYSPACE.exception(defs[a].name(), defs[a].keySpace(), defs[b].name(), defs[b].keySpace());
        }
        parent[find(a)] = find(b);
      }
    }
    for (KeyPredicate kp : t.keys()) {
      int r = resolve(kp.column());
      if (r >= 0 && (keyValues[r] == null || kp.values().size() < keyValues[r].size())) {
        keyValues[r] = kp.values();
      }
    }
  }

  RoutePlan plan() throws SQLException {
    boolean write = t.type() == StatementType.UPDATE || t.type() == StatementType.DELETE;
    TableDef target = t.target() < 0 ? null : defs[t.target()];
    if (write && target != null && target.kind() == TableKind.GLOBAL) {
      return globalWrite(target);
    }
    List<Integer> shards = shardsFor(-1, write);
    if (write && target != null && target.kind() == TableKind.SHARDED) {
      checkKeyChange(target, shards);
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
      refuseRepeatedOuterRows(targets);
      refuseShardedOnlyInSubquery(targets);
      SelectShape shape = keyGroupedExact() ? t.shape() : t.shape().withNested();
      String merge = shape.needsMerge();
      if (merge != null && shape.mergeable()) {
        return RoutePlan.of(Fanout.MERGE, targets, false);
      }
      if (merge != null) {
        throw ShardexError.CROSS_SHARD.exception("SELECT", Router.join(targets),
            "its " + shape.unmergeable() + " needs a cross-shard merge, which this version does not do",
            "add the key (key = ? or key IN (...) on one shard) to route it to one shard");
      }
    }
    return withInSplit(RoutePlan.of(Fanout.CONCAT, targets, false), targets);
  }

  /** Whether every derived table that groups does so by a shard key of its own scope (so each group is on one shard). */
  private boolean keyGroupedExact() {
    for (SelectShape.KeyGrouped d : t.shape().keyGrouped()) {
      if (d.groupBy().stream().noneMatch(c -> resolve(c) >= 0)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A key-less read of SHARDED tables: marked, so a move's copy on a shard that does not own the
   * key yet (or its source after the flip) is hidden from it, and counted once.
   */
  private void markScatter() throws SQLException {
    java.util.Map<String, String> keyColumns = new java.util.HashMap<>();
    String keySpace = null;
    for (TableDef def : defs) {
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
    String column = splitColumn;
    if (column == null || targets.size() < 2 || t.keys().stream().filter(k -> k.column().column().equals(column)).count() != 1) {
      return plan; // not one clear IN list on the key: every shard gets the statement whole (still exact)
    }
    java.util.Map<Integer, int[]> keep = new java.util.TreeMap<>();
    for (int shard : targets) {
      List<Integer> mine = new ArrayList<>();
      for (int v = 0; v < splitShards.length; v++) {
        if (splitShards[v] == shard) {
          mine.add(v);
        }
      }
      if (mine.isEmpty()) {
        return plan;
      }
      keep.put(shard, mine.stream().mapToInt(Integer::intValue).toArray());
    }
    return plan.withInSplit(new RoutePlan.InSplit(splitColumn, splitShards.length, keep));
  }

  /**
   * On several shards, an outer join that keeps every row of a GLOBAL table (present on every
   * shard) against a SHARDED table would return the GLOBAL rows that found no match once per shard.
   */
  private void refuseRepeatedOuterRows(List<Integer> targets) throws SQLException {
    boolean shardedInner = false;
    String keptGlobal = null;
    for (int i = 0; i < defs.length; i++) {
      TableDef d = defs[i];
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
    for (int i = 0; i < defs.length; i++) {
      if (defs[i] != null && defs[i].kind() == TableKind.SHARDED) {
        int branch = t.tables().get(i).branch();
        if (t.shape().rowScope(t.tables().get(i).scope())) {
          rowSharded.add(branch);
        } else {
          innerOnly.putIfAbsent(branch, defs[i].name());
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
    List<Integer> shards = shardsFor(t.target(), false);
    if (shards == ALL) {
      return RoutePlan.of(Fanout.CONCAT, List.copyOf(dir.shards().keySet()), false);
    }
    return shards.isEmpty() ? null : RoutePlan.of(Fanout.CONCAT, shards, false);
  }

  /**
   * The shards the statement needs, ALL for every shard, empty for "any one"; skipping one
   * reference. Top-level UNION branches are routed apart and their shards added up.
   */
  private List<Integer> shardsFor(int skip, boolean write) throws SQLException {
    TreeSet<Integer> branches = new TreeSet<>();
    for (int i = 0; i < defs.length; i++) {
      if (i != skip) {
        branches.add(t.tables().get(i).branch());
      }
    }
    if (branches.size() <= 1) {
      return branchShards(skip, write, branches.isEmpty() ? 0 : branches.first());
    }
    TreeSet<Integer> union = new TreeSet<>();
    boolean everyBranchSharded = true;
    boolean all = false;
    for (int b : branches) {
      List<Integer> s = branchShards(skip, write, b);
      everyBranchSharded &= hasSharded(b, skip);
      if (s == ALL) {
        all = true;
      } else {
        union.addAll(s);
      }
    }
    List<Integer> result = all ? ALL : List.copyOf(union);
    if (!everyBranchSharded && (all || union.size() > 1)) {
      // a GLOBAL or SINGLE branch run on every shard would repeat its rows or miss its table
      throw ShardexError.CROSS_SHARD.exception(t.type().name(), describe(result),
          "its UNION needs a cross-shard merge, which this version does not do",
          "add the key (key = ? or key IN (...) on one shard) to route it to one shard");
    }
    return result;
  }

  private boolean hasSharded(int branch, int skip) {
    for (int i = 0; i < defs.length; i++) {
      if (i != skip && t.tables().get(i).branch() == branch && defs[i] != null && defs[i].kind() == TableKind.SHARDED) {
        return true;
      }
    }
    return false;
  }

  private List<Integer> branchShards(int skip, boolean write, int branch) throws SQLException {
    TreeSet<Integer> homes = new TreeSet<>();
    List<Integer> sharded = new ArrayList<>();
    String keySpace = null;
    for (int i = 0; i < defs.length; i++) {
      if (i == skip || t.tables().get(i).branch() != branch) {
        continue;
      }
      TableDef def = defs[i];
      if (def == null || def.kind() == TableKind.SINGLE) {
        homes.add(def == null || def.homeShard() == null ? dir.homeShard() : def.homeShard());
      } else if (def.kind() == TableKind.SHARDED) {
        if (keySpace != null && !keySpace.equals(def.keySpace())) {
          TableDef first = defs[sharded.get(0)];
          throw ShardexError.CROSS_KEYSPACE.exception(first.name(), first.keySpace(), def.name(), def.keySpace());
        }
        keySpace = def.keySpace();
        sharded.add(i);
      }
    }
    if (homes.size() > 1) {
      throw ShardexError.CROSS_SHARD.exception(t.type().name(), Router.join(homes),
          "its SINGLE tables live on different home shards", "query them separately");
    }
    List<Integer> fromSharded = sharded.isEmpty() ? List.of() : componentShards(sharded, keySpace, write);
    if (homes.isEmpty()) {
      return fromSharded;
    }
    int home = homes.first();
    if (fromSharded == ALL || (!fromSharded.isEmpty() && (fromSharded.size() > 1 || fromSharded.get(0) != home))) {
      throw ShardexError.CROSS_SHARD.exception(t.type().name(),
          describe(fromSharded) + " and home shard " + home,
          "it combines SHARDED tables with a SINGLE table on shard " + home, "query them separately");
    }
    return List.of(home);
  }

  private List<Integer> componentShards(List<Integer> sharded, String keySpace, boolean write) throws SQLException {
    KeyType type = dir.keySpace(keySpace).keyType();
    List<Integer> roots = new ArrayList<>();
    List<List<Integer>> shardsPerRoot = new ArrayList<>();
    for (int r : sharded) {
      int root = find(r);
      int at = roots.indexOf(root);
      if (at < 0) {
        roots.add(root);
        shardsPerRoot.add(ALL);
        at = roots.size() - 1;
      }
      if (keyValues[r] != null) {
        List<Integer> s = keyShards(r, keyValues[r], keySpace, type, write);
        List<Integer> current = shardsPerRoot.get(at);
        if (current == ALL || s.size() < current.size()) {
          shardsPerRoot.set(at, s);
        }
      }
    }
    if (roots.size() == 1) {
      return shardsPerRoot.get(0);
    }
    splitColumn = null; // several components: no single list decides
    List<Integer> first = shardsPerRoot.get(0);
    for (List<Integer> s : shardsPerRoot) {
      if (s == ALL || first == ALL || s.size() > 1 || !s.equals(first)) {
        throw ShardexError.JOIN_NOT_ON_KEY.exception(names(sharded), keyColumns(sharded));
      }
    }
    return first;
  }

  private List<Integer> keyShards(int ref, List<ValueSource> sources, String keySpace, KeyType type, boolean write)
      throws SQLException {
    TreeSet<Integer> shards = new TreeSet<>();
    String table = defs[ref].name();
    int[] valueShards = new int[sources.size()];
    for (int v = 0; v < sources.size(); v++) {
      valueShards[v] = -1;
      Object raw = Router.valueOf(sources.get(v), values, table, defs[ref].keyColumn());
      if (raw == null) {
        continue; // key = NULL matches no row anywhere
      }
      Object key = type.canonical(raw, table);
      Placement p = write ? existingForWrite(keySpace, key) : ctx.read(keySpace, key);
      if (p != null) {
        shards.add(p.shardId());
        valueShards[v] = p.shardId();
      }
    }
    if (shards.size() > 1) {
      splitColumn = defs[ref].keyColumn();
      splitShards = valueShards;
    }
    return List.copyOf(shards);
  }

  /** UPDATE/DELETE never place a key: an unknown key has no rows. A FROZEN key waits for its move. */
  private Placement existingForWrite(String keySpace, Object key) throws SQLException {
    return ctx.dryRun() ? dir.routeRead(keySpace, key) : dir.routeWrite(keySpace, key, ctx.mode(false), ctx.guards(), ctx.held());
  }

  private RoutePlan globalWrite(TableDef target) throws SQLException {
    for (int i = 0; i < defs.length; i++) {
      if (defs[i] != null && defs[i].kind() == TableKind.SHARDED) {
        throw ShardexError.MULTI_TABLE_WRITE.exception(t.type().name(), target.name() + " (GLOBAL) and " + defs[i].name());
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

  private String describe(List<Integer> shards) {
    return Router.join(shards == ALL ? dir.shards().keySet() : shards);
  }

  /** The SHARDED reference whose key column this is, or -1. */
  private int resolve(ColumnRef c) {
    List<TableRef> refs = t.tables();
    for (int scope = c.scope(); scope >= 0; scope = t.scopeParents()[scope]) {
      int found = -1;
      int candidates = 0;
      for (int i = 0; i < refs.size(); i++) {
        TableRef ref = refs.get(i);
        if (ref.scope() != scope) {
          continue;
        }
        if (c.qualifier() != null) {
          if (ref.answersTo(c.qualifier())) {
            return isKey(i, c.column()) ? i : -1;
          }
        } else if (isKey(i, c.column())) {
          found = i;
          candidates++;
        }
      }
      if (c.qualifier() == null && candidates > 0) {
        return candidates == 1 || sameComponent(scope, c.column()) ? found : -1;
      }
      if (c.qualifier() == null && hasTables(scope)) {
        return -1; // unqualified names bind to the innermost scope that has tables
      }
    }
    return -1;
  }

  /** Whether every reference of the scope keyed on this column is in one component (JOIN ... USING). */
  private boolean sameComponent(int scope, String column) {
    int root = -1;
    for (int i = 0; i < defs.length; i++) {
      if (t.tables().get(i).scope() == scope && isKey(i, column)) {
        if (root >= 0 && find(i) != root) {
          return false;
        }
        root = find(i);
      }
    }
    return true;
  }

  private boolean hasTables(int scope) {
    return t.tables().stream().anyMatch(r -> r.scope() == scope);
  }

  private boolean isKey(int ref, String column) {
    TableDef def = defs[ref];
    return def != null && def.kind() == TableKind.SHARDED && def.keyColumn().equals(column);
  }

  private int find(int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  private String names(List<Integer> refs) {
    TreeSet<String> names = new TreeSet<>();
    refs.forEach(r -> names.add(defs[r].name()));
    return String.join(", ", names);
  }

  private String keyColumns(List<Integer> refs) {
    TreeSet<String> keys = new TreeSet<>();
    refs.forEach(r -> keys.add(defs[r].name() + "." + defs[r].keyColumn()));
    return String.join(", ", keys);
  }
}
