package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The shards a SELECT/UPDATE/DELETE needs: each component goes where its keys live, or to every
 * shard ({@link #ALL}) when it has no key; two components only when both have keys on the same
 * single shard; SINGLE and unknown tables pin a branch to their home shard; top-level UNION
 * branches are routed apart and their shards added up. Remembers the key IN list that spread a
 * component over several shards, so each shard can get only its own keys.
 */
final class QueryShards {
  static final List<Integer> ALL = null;

  private final RouteTemplate t;
  private final Object[] values;
  private final RouteContext ctx;
  private final Directory dir;
  private final QueryRefs refs;
  /** The key IN list that decided a multi-shard component: its column, values and each value's shard. */
  String splitColumn;
  int[] splitShards;

  QueryShards(QueryRefs refs, Object[] values, RouteContext ctx) {
    this.t = refs.t;
    this.refs = refs;
    this.values = values;
    this.ctx = ctx;
    this.dir = ctx.directory();
  }

  /**
   * The shards the statement needs, ALL for every shard, empty for "any one"; skipping one
   * reference. Top-level UNION branches are routed apart and their shards added up.
   */
  List<Integer> shardsFor(int skip, boolean write) throws SQLException {
    TreeSet<Integer> branches = new TreeSet<>();
    for (int i = 0; i < refs.defs.length; i++) {
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
      throw apart(write, () -> ShardexError.CROSS_SHARD.exception(t.type().name(), describe(result),
          "its UNION needs a cross-shard merge, which this version does not do",
          "add the key (key = ? or key IN (...) on one shard) to route it to one shard"));
    }
    return result;
  }

  private boolean hasSharded(int branch, int skip) {
    for (int i = 0; i < refs.defs.length; i++) {
      if (i != skip && t.tables().get(i).branch() == branch && refs.defs[i] != null && refs.defs[i].kind() == TableKind.SHARDED) {
        return true;
      }
    }
    return false;
  }

  private List<Integer> branchShards(int skip, boolean write, int branch) throws SQLException {
    TreeSet<Integer> homes = new TreeSet<>();
    List<Integer> sharded = new ArrayList<>();
    String keySpace = null;
    for (int i = 0; i < refs.defs.length; i++) {
      if (i == skip || t.tables().get(i).branch() != branch) {
        continue;
      }
      TableDef def = refs.defs[i];
      if (def == null || def.kind() == TableKind.SINGLE) {
        homes.add(def == null || def.homeShard() == null ? dir.homeShard() : def.homeShard());
      } else if (def.kind() == TableKind.SHARDED) {
        if (keySpace != null && !keySpace.equals(def.keySpace())) {
          TableDef first = refs.defs[sharded.get(0)];
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
      throw apart(write, () -> ShardexError.CROSS_SHARD.exception(t.type().name(),
          describe(fromSharded) + " and home shard " + home,
          "it combines SHARDED tables with a SINGLE table on shard " + home, "query them separately"));
    }
    return List.of(home);
  }

  private List<Integer> componentShards(List<Integer> sharded, String keySpace, boolean write) throws SQLException {
    KeyType type = dir.keySpace(keySpace).keyType();
    List<Integer> roots = new ArrayList<>();
    List<List<Integer>> shardsPerRoot = new ArrayList<>();
    for (int r : sharded) {
      int root = refs.find(r);
      int at = roots.indexOf(root);
      if (at < 0) {
        roots.add(root);
        shardsPerRoot.add(ALL);
        at = roots.size() - 1;
      }
      List<Integer> s = refs.keyValues[r] != null ? keyShards(r, refs.keyValues[r], keySpace, type, write)
          : refs.lookupValues[r] != null
              ? LookupRoute.shards(refs.lookupBy[r], refs.lookupValues[r], values, refs.defs[r], type, ctx, write) : null;
      if (s != null) {
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
        throw apart(write, () -> ShardexError.JOIN_NOT_ON_KEY.exception(refs.names(sharded), refs.keyColumns(sharded),
            "a write or locking read is not answered across shards"));
      }
    }
    return first;
  }

  private List<Integer> keyShards(int ref, List<ValueSource> sources, String keySpace, KeyType type, boolean write)
      throws SQLException {
    TreeSet<Integer> shards = new TreeSet<>();
    String table = refs.defs[ref].name();
    int[] valueShards = new int[sources.size()];
    for (int v = 0; v < sources.size(); v++) {
      valueShards[v] = -1;
      Object raw = Router.valueOf(sources.get(v), values, table, refs.defs[ref].keyColumn());
      if (raw == null) {
        continue; // key = NULL matches no row anywhere
      }
      Object key = type.compared(raw, table, refs.defs[ref].keyColumn());
      if (key == KeyType.NO_KEY) {
        continue; // key = '1e400': past the BIGINT range, no row anywhere
      }
      Placement p = write ? existingForWrite(keySpace, key) : ctx.read(keySpace, key);
      if (p != null) {
        shards.add(p.shardId());
        valueShards[v] = p.shardId();
      }
    }
    if (shards.size() > 1) {
      splitColumn = refs.defs[ref].keyColumn();
      splitShards = valueShards;
    }
    return List.copyOf(shards);
  }

  /** UPDATE/DELETE never place a key: an unknown key has no rows. A FROZEN key waits for its move. */
  private Placement existingForWrite(String keySpace, Object key) throws SQLException {
    return ctx.dryRun() ? dir.routeRead(keySpace, key) : ctx.write(keySpace, key, false);
  }

  String describe(List<Integer> shards) {
    return Router.join(shards == ALL ? dir.shards().keySet() : shards);
  }

  /**
   * The statement's tables live apart (its components, its UNION branches, its SHARDED tables and a
   * SINGLE table): for a SELECT a cross-shard plan may answer, the bare {@link Apart} that
   * {@link QueryRoute#plan} turns into the JOIN plan (no refusal worded that nobody reads); for any
   * other statement, the refusal.
   */
  private SQLException apart(boolean write, java.util.function.Supplier<SQLException> refusal) {
    return QueryRoute.crossShardSelect(t, ctx, write) ? new Apart() : refusal.get();
  }

  /** A SELECT's tables live apart and a cross-shard plan may answer it: thrown without a message or stack. */
  static final class Apart extends SQLException {
    private static final long serialVersionUID = 1L;

    Apart() {
      super("its tables live apart");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
