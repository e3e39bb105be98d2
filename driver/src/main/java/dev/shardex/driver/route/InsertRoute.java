package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Routes INSERT and REPLACE: each row goes where its key lives (new keys are placed), a multi-row
 * INSERT is split by owner, a sequence-filled column gets its ids first; GLOBAL tables get the row
 * everywhere, SINGLE and unknown tables on their home shard. Upserts must not move a row's key,
 * and need every PRIMARY or UNIQUE key to contain the shard key or be a one-column key with a
 * unique lookup (else {@code SHX1211}): the row they collide with is then on the row's own shard,
 * or found through the lookup's entry (LookupUpserts).
 */
final class InsertRoute {
  private InsertRoute() {}

  static RoutePlan plan(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    RoutePlan.Fill fill = SequenceFill.of(t, values, ctx);
    RoutePlan plan = insertRoute(t, values, ctx, fill);
    return fill == null ? plan : plan.withFill(fill);
  }

  private static RoutePlan insertRoute(RouteTemplate t, Object[] values, RouteContext ctx, RoutePlan.Fill fill)
      throws SQLException {
    Directory dir = ctx.directory();
    if (t.targetTable() == null) {
      return RoutePlan.one(Router.anyReadable(ctx), true);
    }
    String table = t.targetTable().name();
    TableDef def = dir.table(table);
    if (def == null || def.kind() == TableKind.SINGLE) {
      int home = def == null || def.homeShard() == null ? dir.homeShard() : def.homeShard();
      return t.insertSelect() ? InsertSelectRoute.single(t, values, ctx, home, table) : RoutePlan.one(home, true);
    }
    if (def.kind() == TableKind.GLOBAL) {
      return t.insertSelect() ? InsertSelectRoute.global(t, ctx, table)
          : RoutePlan.of(Fanout.REPLICATE, List.copyOf(dir.shards().keySet()), true);
    }
    if (t.insertSelect()) {
      return InsertSelectRoute.sharded(t, values, ctx, def);
    }
    // the table's columns and unique keys are read (once, lazily) only when this INSERT needs them
    String upsert = t.upsertKind();
    List<String> columns = t.insertColumns();
    TableSchemas.Schema schema = upsert != null || columns.isEmpty() ? ctx.schema(table) : TableSchemas.Schema.UNKNOWN;
    List<dev.shardex.directory.lookup.Lookup> lookups = dir.lookups().of(table);
    String unkeyed = upsert == null ? null : schema.keyWithout(def.keyColumn(), LookupRoute.uniqueColumns(lookups));
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
    if (!keyFilled && (keyIndex < 0 || PendingRoute.nullKey(t, values, keyIndex, def))) {
      return PendingRoute.hold(t, def, fill, ctx, keyIndex < 0);
    }
    var type = dir.keySpace(def.keySpace()).keyType();
    java.util.TreeMap<Integer, List<Integer>> rowsPerShard = new java.util.TreeMap<>();
    List<List<ValueSource>> rows = t.insertRows();
    Object[] keys = new Object[rows.size()];
    int[] shards = new int[rows.size()];
    for (int r = 0; r < rows.size(); r++) {
      Object raw = keyFilled && fill.ids()[r] != RoutePlan.Fill.KEEP ? (Object) fill.ids()[r]
          : Router.valueOf(rows.get(r).get(keyIndex), values, table, def.keyColumn());
      keys[r] = type.canonical(raw, table, def.keyColumn());
      shards[r] = ctx.write(def.keySpace(), keys[r], true).shardId();
      rowsPerShard.computeIfAbsent(shards[r], s -> new ArrayList<>()).add(r);
    }
    if (!lookups.isEmpty()) {
      LookupRoute.refuseUpdatingUpsert(t, def, lookups, schema);
      LookupWork work = LookupWork.insert(t, def, lookups, columns, values, fill, keys, shards);
      ctx.lookupWork(UpsertWork.wanted(t) ? work.withUpsert(UpsertWork.of(t, def, lookups, columns, values, fill, schema)) : work);
    }
    ValueSource onDuplicate = t.assignments().get(def.keyColumn());
    if (onDuplicate != null && !(onDuplicate instanceof ValueSource.Opaque)) {
      Router.checkKeyStays(def, onDuplicate, values, List.copyOf(rowsPerShard.keySet()), ctx);
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
}
