package dev.shardex.driver.route;

import dev.shardex.directory.Directory;
import dev.shardex.directory.placement.Placement;
import dev.shardex.driver.sql.Hints;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.ValueSource;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * route stage: a template plus one execution's values become a {@link RoutePlan}.
 *
 * <p>The rules, in the order they apply: hints (when enabled) win; DDL goes where its table lives;
 * INSERT goes where each row's key lives (placing new keys); SELECT/UPDATE/DELETE are resolved by
 * {@link QueryRoute} from the key predicates and join equalities of the template. A statement that
 * names no table goes to one readable shard. Every rejection is a named {@link ShardexError}.
 * A statement that names one SHARDED table by its key takes a fast path first ({@link KeyRoute}).
 */
public final class Router {
  private Router() {}

  /**
   * Routes one execution. The plan carries everything routing took as its guards (writes in
   * flight, what key reads were routed by, a key-less read's mark), for the caller to settle.
   */
  public static RoutePlan route(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    RoutePlan plan = routeMarked(t, values, ctx);
    if (ctx.marks().isEmpty()) {
      return plan;
    }
    List<AutoCloseable> all = new ArrayList<>(plan.guards());
    ctx.marks().moveTo(all);
    return plan.withGuards(all);
  }

  /**
   * Routes one execution leaving its key marks in {@code ctx.marks()} (a key-less read's mark is
   * the plan's guard): the caller ends them or hands them to its transaction, and checks
   * {@link dev.shardex.directory.placement.KeyMarks#current} before the context routes again. A key-equality
   * statement allocates nothing here ({@link KeyRoute}).
   */
  public static RoutePlan routeMarked(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    ctx.clear();
    try {
      RoutePlan plan = KeyRoute.route(t, values, ctx);
      if (plan == null) {
        plan = routeOnce(t, values, ctx);
      }
      return ctx.guards().isEmpty() ? plan : plan.withGuards(ctx.guards());
    } catch (SQLException | RuntimeException e) {
      ctx.abandon();
      throw e;
    }
  }

  /** The general path (package-private for KeyRouteTest, which compares the fast path with it). */
  static RoutePlan routeOnce(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    Directory dir = ctx.directory();
    if (ctx.hintsEnabled() && t.hints().routes()) {
      return byHint(t, ctx);
    }
    if (t.parseError() != null) {
      throw t.parseError();
    }
    return switch (t.type()) {
      case DDL -> DdlRoute.plan(t, dir);
      case INSERT, REPLACE -> InsertRoute.plan(t, values, ctx);
      case SELECT, UPDATE, DELETE -> new QueryRoute(t, values, ctx).plan();
      default -> RoutePlan.one(anyReadable(ctx), false);
    };
  }

  static int anyReadable(RouteContext ctx) throws SQLException {
    Integer preferred = ctx.preferredShard();
    dev.shardex.directory.catalog.Shard s = preferred == null ? null : ctx.directory().shards().get(preferred);
    if (s != null && s.status().acceptsReads()) {
      return preferred;
    }
    return ctx.directory().anyReadableShard();
  }

  // ---- hints -------------------------------------------------------------------------------------

  private static RoutePlan byHint(RouteTemplate t, RouteContext ctx) throws SQLException {
    Hints h = t.hints();
    boolean write = t.type().isWrite();
    if (h.shard() != null) {
      ctx.directory().shard(h.shard());
      return RoutePlan.one(h.shard(), write);
    }
    String keySpace = KeySpace.DEFAULT;
    String table = "key space " + KeySpace.DEFAULT;
    String column = "key";
    for (var ref : t.tables()) {
      TableDef def = ctx.directory().table(ref.name());
      if (def != null && def.kind() == TableKind.SHARDED) {
        keySpace = def.keySpace();
        table = def.name();
        column = def.keyColumn();
        break;
      }
    }
    Object key = ctx.directory().keySpace(keySpace).keyType().canonical(h.key(), table, column);
    boolean insert = t.type() == StatementType.INSERT || t.type() == StatementType.REPLACE;
    Placement p = write ? ctx.write(keySpace, key, insert) : ctx.read(keySpace, key);
    return RoutePlan.one(p == null ? anyReadable(ctx) : p.shardId(), write);
  }

  /**
   * An assignment to a row's shard key must keep the row on its shard: the new key must be owned
   * by the shard(s) the rows live on; a new key is placed there (not on a dry run).
   */
  static void checkKeyStays(TableDef target, ValueSource set, Object[] values, List<Integer> rowShards, RouteContext ctx)
      throws SQLException {
    Directory dir = ctx.directory();
    Object raw = valueOf(set, values, target.name(), target.keyColumn());
    Object key = dir.keySpace(target.keySpace()).keyType().canonical(raw, target.name(), target.keyColumn());
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

  /**
   * Whether a read on several shards may compute its window functions on each shard: each one is
   * partitioned by the shard key of a SHARDED table its rows come from (aliases and co-located joins
   * resolved as for routing; not a key of an outer join's NULL-supplying side), so each partition
   * lives on one shard.
   */
  public static dev.shardex.driver.sql.WindowRule windows(RouteTemplate t, Directory dir) throws SQLException {
    return QueryRoute.windows(t, dir);
  }

  public static String join(java.util.Collection<Integer> shards) {
    StringBuilder s = new StringBuilder();
    for (Integer id : shards) {
      s.append(s.length() == 0 ? "" : ", ").append(id);
    }
    return s.toString();
  }


}
