package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.List;

/**
 * The fast path: a statement on one SHARDED table that names one key ({@code key = ?} or
 * {@code key = literal} in a SELECT, UPDATE or DELETE that does not assign the key; a one-row
 * INSERT of a given key into a table without a sequence column; writes to tables without lookup indexes). What it needs from the catalog
 * (the table, its key space and key type, where the key comes from) is bound once per template and
 * catalog version ({@link Directory#catalogVersion}) and kept in the template's route slot; each
 * execution then only reads the key's placement and returns a shared plan, allocating nothing.
 * Everything else (and a statement routed by a hint) takes the general path, which gives the same
 * answer (KeyRouteTest checks it on every route fixture).
 */
final class KeyRoute {
  private enum Kind { NONE, READ, WRITE, INSERT }

  private final Directory directory;
  private final long version;
  private final Kind kind;
  private final String table;
  private final String keyColumn;
  private final String keySpace;
  private final KeyType type;
  private final ValueSource key;

  private KeyRoute(Directory directory, long version, Kind kind, TableDef def, KeyType type, ValueSource key) {
    this.directory = directory;
    this.version = version;
    this.kind = kind;
    this.table = def == null ? null : def.name();
    this.keyColumn = def == null ? null : def.keyColumn();
    this.keySpace = def == null ? null : def.keySpace();
    this.type = type;
    this.key = key;
  }

  /** The plan of a key-equality statement, or null when it takes the general path. */
  static RoutePlan route(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    if (ctx.hintsEnabled() && t.hints().routes()) {
      return null;
    }
    KeyRoute b = binding(t, ctx.directory());
    return b == null || b.kind == Kind.NONE ? null : b.plan(values, ctx);
  }

  private RoutePlan plan(Object[] values, RouteContext ctx) throws SQLException {
    boolean write = kind != Kind.READ;
    Object raw = Router.valueOf(key, values, table, keyColumn);
    if (raw == null && kind != Kind.INSERT) {
      return RoutePlan.one(Router.anyReadable(ctx), write); // key = NULL matches no row anywhere
    }
    Object canonical = kind == Kind.INSERT ? type.canonical(raw, table, keyColumn) : type.compared(raw, table, keyColumn);
    if (canonical == KeyType.NO_KEY) {
      return RoutePlan.one(Router.anyReadable(ctx), write); // key = '1e400': past the BIGINT range, no row anywhere
    }
    // UPDATE/DELETE never place a key (an unknown key has no rows); a dry run predicts without a mark
    Placement p = kind == Kind.READ || (kind == Kind.WRITE && ctx.dryRun()) ? ctx.read(keySpace, canonical)
        : ctx.write(keySpace, canonical, kind == Kind.INSERT);
    return RoutePlan.one(p == null ? Router.anyReadable(ctx) : p.shardId(), write);
  }

  /** The template's binding at the directory's current catalog version (bound again when it moved). */
  private static KeyRoute binding(RouteTemplate t, Directory dir) {
    long version = dir.catalogVersion(); // read before the catalog: a change after it is seen next time
    if (t.routeSlot().get() instanceof KeyRoute b && b.version == version && b.directory == dir) {
      return b;
    }
    try {
      KeyRoute b = bind(t, dir, version);
      t.routeSlot().set(b);
      return b;
    } catch (SQLException e) {
      return null; // the general path raises it
    }
  }

  private static KeyRoute bind(RouteTemplate t, Directory dir, long version) throws SQLException {
    KeyRoute none = new KeyRoute(dir, version, Kind.NONE, null, null, null);
    if (t.parseError() != null) {
      return none;
    }
    StatementType type = t.type();
    if (type == StatementType.SELECT || type == StatementType.UPDATE || type == StatementType.DELETE) {
      boolean write = type != StatementType.SELECT;
      if (t.tables().size() != 1 || !t.links().isEmpty() || (write && t.target() != 0)) {
        return none;
      }
      QueryRefs refs = new QueryRefs(t, dir);
      TableDef def = refs.defs[0];
      List<ValueSource> keys = refs.keyValues[0];
      if (!sharded(def) || keys == null || keys.size() != 1 || !given(keys.get(0))
          || (write && t.assignments().containsKey(def.keyColumn()))) {
        return none;
      }
      if (write && !dir.lookups().of(def.name()).isEmpty()) {
        return none; // the general path finds the work its lookups need
      }
      return bound(dir, version, write ? Kind.WRITE : Kind.READ, def, keys.get(0));
    }
    if (type != StatementType.INSERT || t.targetTable() == null || t.insertSelect() || t.upsertKind() != null
        || t.insertColumns().isEmpty() || t.insertRows().size() != 1) {
      return none;
    }
    TableDef def = dir.table(t.targetTable().name());
    if (!sharded(def) || dir.sequenceColumn(def.name()) != null || !dir.lookups().of(def.name()).isEmpty()) {
      return none;
    }
    int at = t.insertColumns().indexOf(def.keyColumn());
    List<ValueSource> row = t.insertRows().get(0);
    return at < 0 || at >= row.size() || !given(row.get(at)) ? none : bound(dir, version, Kind.INSERT, def, row.get(at));
  }

  private static KeyRoute bound(Directory dir, long version, Kind kind, TableDef def, ValueSource key)
      throws SQLException {
    return new KeyRoute(dir, version, kind, def, dir.keySpace(def.keySpace()).keyType(), key);
  }

  private static boolean sharded(TableDef def) {
    return def != null && def.kind() == TableKind.SHARDED;
  }

  private static boolean given(ValueSource v) {
    return v instanceof ValueSource.Param || v instanceof ValueSource.Literal;
  }
}
