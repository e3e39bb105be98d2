package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.KeySpace;
import dev.shardex.directory.Placement;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import dev.shardex.driver.sql.Ddl;
import dev.shardex.driver.sql.Hints;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.ValueSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * route stage: a template plus one execution's values become a {@link RoutePlan}.
 *
 * <p>The rules, in the order they apply: hints (when enabled) win; DDL goes where its table lives;
 * INSERT goes where each row's key lives (placing new keys); SELECT/UPDATE/DELETE are resolved by
 * {@link QueryRoute} from the key predicates and join equalities of the template. A statement that
 * names no table goes to one readable shard. Every rejection is a named {@link ShardexError}.
 */
public final class Router {
  private Router() {}

  public static RoutePlan route(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    try {
      RoutePlan plan = routeOnce(t, values, ctx);
      return ctx.guards().isEmpty() ? plan : plan.withGuards(ctx.guards());
    } catch (SQLException | RuntimeException e) {
      Directory.release(ctx.guards());
      throw e;
    }
  }

  private static RoutePlan routeOnce(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    Directory dir = ctx.directory();
    if (ctx.hintsEnabled() && t.hints().routes()) {
      return byHint(t, values, ctx);
    }
    if (t.parseError() != null) {
      throw t.parseError();
    }
    return switch (t.type()) {
      case DDL -> ddl(t, dir);
      case INSERT, REPLACE -> insert(t, values, ctx);
      case SELECT, UPDATE, DELETE -> new QueryRoute(t, values, ctx).plan();
      default -> RoutePlan.one(anyReadable(ctx), false);
    };
  }

  static int anyReadable(RouteContext ctx) throws SQLException {
    Integer preferred = ctx.preferredShard();
    if (preferred != null && ctx.directory().shards().containsKey(preferred)
        && ctx.directory().shard(preferred).status().acceptsReads()) {
      return preferred;
    }
    return ctx.directory().anyReadableShard();
  }

  // ---- hints -------------------------------------------------------------------------------------

  private static RoutePlan byHint(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    Hints h = t.hints();
    boolean write = t.type().isWrite();
    if (h.shard() != null) {
      ctx.directory().shard(h.shard());
      return RoutePlan.one(h.shard(), write);
    }
    String keySpace = KeySpace.DEFAULT;
    String table = "key space " + KeySpace.DEFAULT;
    for (var ref : t.tables()) {
      TableDef def = ctx.directory().table(ref.name());
      if (def != null && def.kind() == TableKind.SHARDED) {
        keySpace = def.keySpace();
        table = def.name();
        break;
      }
    }
    Object key = ctx.directory().keySpace(keySpace).keyType().canonical(h.key(), table);
    boolean insert = t.type() == StatementType.INSERT || t.type() == StatementType.REPLACE;
    Placement p = write ? ctx.directory().routeWrite(keySpace, key, ctx.mode(insert), ctx.guards(), ctx.held())
        : ctx.read(keySpace, key);
    return RoutePlan.one(p == null ? anyReadable(ctx) : p.shardId(), write);
  }

  // ---- DDL ---------------------------------------------------------------------------------------

  private static RoutePlan ddl(RouteTemplate t, Directory dir) throws SQLException {
    Ddl ddl = t.ddl();
    if (ddl.verb() == Ddl.Verb.OTHER || ddl.tables().isEmpty()) {
      return new RoutePlan(Fanout.DDL, List.copyOf(dir.shards().keySet()), true, null, List.of());
    }
    if (ddl.verb() == Ddl.Verb.CREATE_TABLE) {
      String name = ddl.tables().get(0);
      TableDef def = declaration(name, t.hints(), dir);
      return new RoutePlan(Fanout.DDL, shardsOf(def, dir), true, def, List.of());
    }
    if (ddl.verb() == Ddl.Verb.RENAME) {
      TableDef def = dir.table(ddl.tables().get(0));
      if (def == null) {
        return new RoutePlan(Fanout.DDL, List.of(dir.homeShard()), true, null, List.of());
      }
      TableDef renamed = new TableDef(ddl.tables().get(1), def.kind(), def.keySpace(), def.keyColumn(), def.homeShard());
      return new RoutePlan(Fanout.DDL, shardsOf(def, dir), true, renamed, List.of(def.name()));
    }
    TreeSet<Integer> shards = new TreeSet<>();
    for (String name : ddl.tables()) {
      TableDef def = dir.table(name);
      shards.addAll(def == null ? List.of(dir.homeShard()) : shardsOf(def, dir));
    }
    List<String> forget = ddl.verb() == Ddl.Verb.DROP_TABLE ? ddl.tables() : List.of();
    return new RoutePlan(Fanout.DDL, List.copyOf(shards), true, null, forget);
  }

  /** The declaration a CREATE TABLE makes: its comment's, else the catalog's, else SINGLE on home. */
  private static TableDef declaration(String name, Hints hints, Directory dir) throws SQLException {
    Hints.Declaration d = hints.declaration();
    TableDef existing = dir.table(name);
    if (d == null) {
      return existing != null ? existing : TableDef.single(name, dir.homeShard());
    }
    TableDef declared = declared(name, d, dir);
    if (existing != null && !existing.equals(declared)) {
      throw ShardexError.BAD_DECLARATION.exception("of table " + name, "it is already declared " + describe(existing)
          + "; a CREATE TABLE cannot change how an existing table is spread (drop it first, or use 'shardex tables')");
    }
    return declared;
  }

  private static String describe(TableDef def) {
    return switch (def.kind()) {
      case SHARDED -> "SHARDED by " + def.keyColumn() + " in key space " + def.keySpace();
      case GLOBAL -> "GLOBAL";
      case SINGLE -> "SINGLE on shard " + def.homeShard();
    };
  }

  private static TableDef declared(String name, Hints.Declaration d, Directory dir) throws SQLException {
    return switch (d.kind()) {
      case SHARDED -> {
        dir.keySpace(d.keySpace());
        yield TableDef.sharded(name, d.keySpace(), d.keyColumn());
      }
      case GLOBAL -> TableDef.global(name);
      case SINGLE -> {
        int home = d.shard() == null ? dir.homeShard() : d.shard();
        dir.shard(home);
        yield TableDef.single(name, home);
      }
    };
  }

  static List<Integer> shardsOf(TableDef def, Directory dir) throws SQLException {
    if (def.kind() == TableKind.SINGLE) {
      return List.of(def.homeShard() == null ? dir.homeShard() : def.homeShard());
    }
    return List.copyOf(dir.shards().keySet());
  }

  // ---- INSERT / REPLACE -----------------------------------------------------------------------------

  private static RoutePlan insert(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    RoutePlan.Fill fill = fill(t, values, ctx);
    RoutePlan plan = insertRoute(t, values, ctx, fill);
    return fill == null ? plan : plan.withFill(fill);
  }

  /**
   * The ids a sequence-filled column gets when the INSERT omits it or gives NULL (one per row, from this
   * instance's block), or null. EXPLAIN ROUTE shows ids too: the block they came from is spent.
   */
  private static RoutePlan.Fill fill(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    if (t.targetTable() == null || t.insertSelect() || t.insertColumns().isEmpty() || t.insertRows().isEmpty()) {
      return null;
    }
    String column = ctx.directory().sequenceColumn(t.targetTable().name());
    int at = column == null ? -1 : t.insertColumns().indexOf(column);
    if (column == null || (at >= 0 && !allNull(t.insertRows(), at, values))) {
      return null;
    }
    String sequence = t.targetTable().name() + "." + column;
    return new RoutePlan.Fill(column, ctx.directory().nextIds(sequence, t.insertRows().size(), ctx.sequenceBlock()), at);
  }

  /** Whether every row gives NULL at this position: as for AUTO_INCREMENT, NULL asks for the next id. */
  private static boolean allNull(List<List<ValueSource>> rows, int at, Object[] values) {
    for (List<ValueSource> row : rows) {
      ValueSource v = at < row.size() ? row.get(at) : null;
      boolean isNull = v instanceof ValueSource.Literal l ? l.value() == null
          : v instanceof ValueSource.Param p && p.index() < values.length && values[p.index()] == null;
      if (!isNull) {
        return false;
      }
    }
    return true;
  }

  private static RoutePlan insertRoute(RouteTemplate t, Object[] values, RouteContext ctx, RoutePlan.Fill fill)
      throws SQLException {
    Directory dir = ctx.directory();
    if (t.targetTable() == null) {
      return RoutePlan.one(anyReadable(ctx), true);
    }
    String table = t.targetTable().name();
    TableDef def = dir.table(table);
    if (def == null || def.kind() == TableKind.SINGLE) {
      int home = def == null || def.homeShard() == null ? dir.homeShard() : def.homeShard();
      if (t.insertSelect()) {
        requireSourceOn(t, values, ctx, home, table);
      }
      return RoutePlan.one(home, true);
    }
    if (def.kind() == TableKind.GLOBAL) {
      if (t.insertSelect()) {
        requireNoShardedSource(t, dir, table);
      }
      return RoutePlan.of(Fanout.REPLICATE, List.copyOf(dir.shards().keySet()), true);
    }
    if (t.insertSelect()) {
      throw ShardexError.INSERT_SELECT.exception(table);
    }
    // the table's columns and unique keys are read (once, lazily) only when this INSERT needs them
    String upsert = t.upsertKind();
    List<String> columns = t.insertColumns();
    TableSchemas.Schema schema = upsert != null || columns.isEmpty() ? ctx.schema(table) : TableSchemas.Schema.UNKNOWN;
    String unkeyed = upsert == null ? null : schema.keyWithout(def.keyColumn());
    if (unkeyed != null) {
      throw ShardexError.UPSERT_KEY.exception(upsert, table, unkeyed, def.keyColumn(), def.keyColumn());
    }
    ValueSource keySet = t.assignments().get(def.keyColumn());
    if (keySet instanceof ValueSource.Opaque expression && !keepsKey(expression.text(), def.keyColumn())) {
      throw ShardexError.KEY_CHANGE.exception(table, def.keyColumn(), "in ON DUPLICATE KEY UPDATE to an expression ('"
          + expression.text() + "') that may name a key on another shard");
    }
    if (columns.isEmpty() && schema.known()) {
      columns = schema.columnNames(); // INSERT INTO t VALUES (...): the table's columns, in order
    }
    int keyIndex = columns.indexOf(def.keyColumn());
    for (List<ValueSource> row : t.insertRows()) {
      if (keyIndex >= row.size()) {
        throw ShardexError.UNSUPPORTED.exception("INSERT into " + table + " giving " + row.size() + " values for "
            + columns.size() + " columns", "give one value per column, or name the columns");
      }
    }
    boolean keyFilled = fill != null && fill.column().equals(def.keyColumn());
    if (keyIndex < 0 && !keyFilled) {
      throw ShardexError.INSERT_NO_KEY.exception(table, def.keyColumn(), def.keyColumn());
    }
    var type = dir.keySpace(def.keySpace()).keyType();
    java.util.TreeMap<Integer, List<Integer>> rowsPerShard = new java.util.TreeMap<>();
    List<List<ValueSource>> rows = t.insertRows();
    for (int r = 0; r < rows.size(); r++) {
      Object raw = keyFilled ? (Object) fill.ids()[r] : valueOf(rows.get(r).get(keyIndex), values, table, def.keyColumn());
      Object key = type.canonical(raw, table);
      int shard = dir.routeWrite(def.keySpace(), key, ctx.mode(true), ctx.guards(), ctx.held()).shardId();
      rowsPerShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(r);
    }
    ValueSource onDuplicate = t.assignments().get(def.keyColumn());
    if (onDuplicate != null && !(onDuplicate instanceof ValueSource.Opaque)) {
      checkKeyStays(def, onDuplicate, values, List.copyOf(rowsPerShard.keySet()), ctx);
    }
    if (rowsPerShard.size() == 1) {
      return RoutePlan.one(rowsPerShard.firstKey(), true);
    }
    java.util.Map<Integer, int[]> split = new java.util.TreeMap<>();
    rowsPerShard.forEach((shard, list) -> split.put(shard, list.stream().mapToInt(Integer::intValue).toArray()));
    return RoutePlan.split(split);
  }

  /**
   * {@code key = VALUES(key)}, {@code key = key} or {@code key = alias.key} in ON DUPLICATE KEY
   * UPDATE: the colliding row has the same key (every unique key contains it), so nothing moves.
   */
  private static boolean keepsKey(String expression, String keyColumn) {
    String e = expression.replace("`", "").replaceAll("\\s+", "").toLowerCase(java.util.Locale.ROOT);
    return e.equals(keyColumn) || e.equals("values(" + keyColumn + ")") || e.endsWith("." + keyColumn)
        && e.indexOf('.') == e.lastIndexOf('.') && e.matches("[a-z0-9_$]+\\.[a-z0-9_$]+");
  }

  /**
   * An assignment to a row's shard key must keep the row on its shard: the new key must be owned
   * by the shard(s) the rows live on; a new key is placed there (not on a dry run).
   */
  static void checkKeyStays(TableDef target, ValueSource set, Object[] values, List<Integer> rowShards, RouteContext ctx)
      throws SQLException {
    Directory dir = ctx.directory();
    Object raw = valueOf(set, values, target.name(), target.keyColumn());
    Object key = dir.keySpace(target.keySpace()).keyType().canonical(raw, target.name());
    Placement p = dir.routeRead(target.keySpace(), key);
    if (p == null && rowShards.size() == 1 && !ctx.dryRun()) {
      p = dir.store().placeIfAbsent(target.keySpace(), key.toString(), rowShards.get(0));
    }
    int owner = p == null ? rowShards.get(0) : p.shardId();
    for (int current : rowShards) {
      if (current != owner) {
        throw ShardexError.KEY_CHANGE.exception(target.name(), target.keyColumn(),
            "to a key owned by shard " + owner + " while the row lives on shard " + current);
      }
    }
  }

  private static void requireSourceOn(RouteTemplate t, Object[] values, RouteContext ctx, int shard, String table)
      throws SQLException {
    RoutePlan source = new QueryRoute(t, values, ctx).sourcePlan();
    if (source != null && (source.shards().size() != 1 || source.single() != shard)) {
      throw ShardexError.CROSS_SHARD.exception("INSERT ... SELECT into " + table, join(source.shards()) + " and " + shard,
          "INSERT ... SELECT runs on one shard only", "read the rows, then insert them");
    }
  }

  private static void requireNoShardedSource(RouteTemplate t, Directory dir, String table) throws SQLException {
    for (var ref : t.tables()) {
      TableDef def = dir.table(ref.name());
      if ((def == null || def.kind() != TableKind.GLOBAL) && !ref.name().equals(table)) {
        throw ShardexError.CROSS_SHARD.exception("INSERT ... SELECT into GLOBAL table " + table, join(dir.shards().keySet()),
            "its source " + ref.name() + " is not on every shard", "read the rows, then insert them");
      }
    }
  }

  /** The value a template slot has in this execution. */
  static Object valueOf(ValueSource source, Object[] values, String table, String column) throws SQLException {
    if (source instanceof ValueSource.Param p) {
      if (p.index() >= values.length) {
        throw ShardexError.DIRECTORY_STATE.exception("parameter " + (p.index() + 1) + " (key " + column + " of table "
            + table + ") is not set; set every parameter before executing");
      }
      return values[p.index()];
    }
    if (source instanceof ValueSource.Literal l) {
      return l.value();
    }
    // Quote the expression as written; a plain statement's normalised text shows ? for its literals, so skip those.
    String text = ((ValueSource.Opaque) source).text();
    throw ShardexError.UNSUPPORTED.exception("the key " + column + " of table " + table + " given as "
        + (text.contains("?") || text.isEmpty() ? "an expression" : "the expression '" + text + "'"),
        "give the key as a literal or a ? parameter");
  }

  public static String join(java.util.Collection<Integer> shards) {
    StringBuilder s = new StringBuilder();
    for (Integer id : shards) {
      s.append(s.length() == 0 ? "" : ", ").append(id);
    }
    return s.toString();
  }


}
