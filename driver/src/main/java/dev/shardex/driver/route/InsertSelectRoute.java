package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.driver.sql.ColumnRef;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.List;

/**
 * Routes an INSERT (or REPLACE) ... SELECT. It runs whole on one shard when every row it writes
 * belongs there: into a SHARDED table, when the SELECT reads the keys of one shard (a key predicate,
 * as any read; those keys guarded as written ones) and the target's key is inserted unchanged from
 * that table's key, of the same key space; into a SINGLE table, when the SELECT runs on its home
 * shard; into a GLOBAL table, when the SELECT reads GLOBAL tables only (each shard copies its own).
 * Any other is read first and inserted by key: a {@link RoutePlan#join()} plan that runs its own
 * statements (jdbc.InsertSelectQuery). A target with a sequence-filled column or lookup indexes is
 * always read first, since those take the rows one by one.
 */
final class InsertSelectRoute {
  private InsertSelectRoute() {}

  static RoutePlan sharded(RouteTemplate t, Object[] values, RouteContext ctx, TableDef def) throws SQLException {
    RoutePlan one = colocated(t, values, ctx, def);
    if (one != null) {
      return one;
    }
    List<String> columns = t.insertColumns().isEmpty() ? ctx.schema(def.name()).columnNames() : t.insertColumns();
    String sequence = ctx.directory().sequenceColumn(def.name());
    if (!columns.isEmpty() && !columns.contains(def.keyColumn()) && !def.keyColumn().equals(sequence)) {
      throw ShardexError.INSERT_NO_KEY.exception(def.name(), def.keyColumn(), def.keyColumn(), def.keyColumn());
    }
    return readFirst(ctx, def.name(), "its rows live on other shards than the SELECT reads");
  }

  /** Into a SINGLE (or unknown) table on {@code home}: whole there when its SELECT runs there too. */
  static RoutePlan single(RouteTemplate t, Object[] values, RouteContext ctx, int home, String table) throws SQLException {
    RoutePlan source;
    try {
      source = new QueryRoute(t, values, ctx).sourcePlan();
    } catch (SQLException e) {
      if (!ShardexError.JOIN_NOT_ON_KEY.is(e) && !ShardexError.CROSS_SHARD.is(e)) {
        throw e;
      }
      return readFirst(ctx, table, "its SELECT needs several shards");
    }
    if (source != null && (source.shards().size() != 1 || source.single() != home)) {
      return readFirst(ctx, table, "its SELECT runs on shards " + Router.join(source.shards()) + ", the table on " + home);
    }
    return RoutePlan.one(home, true);
  }

  /** Into a GLOBAL table: on every shard when its SELECT reads GLOBAL tables only, else read first. */
  static RoutePlan global(RouteTemplate t, RouteContext ctx, String table) throws SQLException {
    Directory dir = ctx.directory();
    for (var ref : t.tables()) {
      TableDef def = dir.table(ref.name());
      if ((def == null || def.kind() != TableKind.GLOBAL) && !ref.name().equals(table)) {
        return readFirst(ctx, table, "its source " + ref.name() + " is not on every shard");
      }
    }
    return RoutePlan.of(Fanout.REPLICATE, List.copyOf(dir.shards().keySet()), true);
  }

  private static RoutePlan readFirst(RouteContext ctx, String table, String why) throws SQLException {
    if (!ctx.crossShardSteps()) {
      throw ShardexError.INSERT_SELECT.exception(table, why, "read the rows, then insert them");
    }
    return RoutePlan.join();
  }

  /** The one shard every row lives on and goes to, or null. */
  private static RoutePlan colocated(RouteTemplate t, Object[] values, RouteContext ctx, TableDef def) throws SQLException {
    Directory dir = ctx.directory();
    String table = def.name();
    if (dir.sequenceColumn(table) != null || !dir.lookups().of(table).isEmpty()
        || t.assignments().containsKey(def.keyColumn())) {
      return null;
    }
    List<String> columns = t.insertColumns().isEmpty() ? ctx.schema(table).columnNames() : t.insertColumns();
    int at = columns.indexOf(def.keyColumn());
    ColumnRef source = at < 0 || at >= t.insertSelectColumns().size() ? null : t.insertSelectColumns().get(at);
    if (source == null || t.upsertKind() != null && ctx.schema(table).keyWithout(def.keyColumn()) != null) {
      return null; // an upsert whose row may collide on another shard: the INSERT path names the key (SHX1211)
    }
    try {
      return new QueryRoute(t, values, ctx).colocated(source, def);
    } catch (SQLException e) {
      if (ShardexError.JOIN_NOT_ON_KEY.is(e) || ShardexError.CROSS_SHARD.is(e) || ShardexError.CROSS_KEYSPACE.is(e)) {
        return null; // its SELECT needs a cross-shard step: read first
      }
      throw e;
    }
  }
}
