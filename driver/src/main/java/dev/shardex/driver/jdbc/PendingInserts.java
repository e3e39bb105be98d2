package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.execute.LookupWrites;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.route.LookupWork;
import dev.shardex.driver.route.PendingRoute;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.KeyPredicate;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.driver.sql.TableRef;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * INSERTs held until their shard key arrives, per logical connection.
 *
 * <p>Why: Hibernate's unidirectional {@code @OneToMany @JoinColumn(name = "owner_id")} inserts the
 * child without the parent's key ({@code insert into pets (birth_date,name,type_id) values (?,?,?)},
 * its id read back with getGeneratedKeys), then sets the key in the same transaction
 * ({@code update pets set owner_id=? where id=?}). No shard can take the row before the key, which
 * decides the shard. So, inside a transaction, the route stage hands such an INSERT back as a HOLD
 * plan (its id already taken from the sequence, see PendingRoute) and it is kept here; the UPDATE
 * that names its id and sets its key sends the INSERT as written and then the UPDATE, both on the
 * key's shard, in the transaction: the statements one server would have run, in the same order.
 *
 * <p>Invariants: at most {@link #MAX} rows per connection; while a table holds rows, any other
 * statement naming it is refused ({@code SHX1212}: it could not see them); a commit with rows held
 * is refused ({@code SHX1305}) and leaves the transaction open; rollback forgets them. A row whose
 * INSERT fails on the shard stays held (never silently dropped). A connection holding nothing pays
 * one boolean test per statement ({@link #any}).
 */
final class PendingInserts {
  /** The most rows one connection may hold. */
  static final int MAX = 1000;

  /** A held row: its table, the id the sequence gave it, and its INSERT with the values it was run with. */
  private record Held(TableDef def, RoutePlan.Fill fill, ShardCall insert, RouteTemplate template, Object[] values) {
    long id() {
      return fill.ids()[0];
    }
  }

  private final Cluster cluster;
  private final ShardSession session;
  private final Map<String, Map<Long, Held>> tables = new LinkedHashMap<>();
  private int size;
  private LookupWrites lookupWrites;

  PendingInserts(Cluster cluster, ShardSession session) {
    this.cluster = cluster;
    this.session = session;
  }

  boolean any() {
    return size > 0;
  }

  /** Holds an INSERT the route stage could not place (a HOLD plan): one row, its id in getGeneratedKeys. */
  Outcome hold(RoutePlan plan, RouteTemplate t, Object[] values, String sql, ShardCall call, Statement owner, boolean keys)
      throws SQLException {
    TableDef def = cluster.directory().table(t.targetTable().name());
    if (size >= MAX) {
      throw ShardexError.PENDING_LIMIT.exception(def.name(), def.keyColumn(), MAX, def.name(), def.keyColumn(),
          plan.fill().column());
    }
    Held h = new Held(def, plan.fill(), call instanceof BoundCall bound ? bound : BoundCall.of(owner, sql), t,
        values.clone());
    tables.computeIfAbsent(def.name(), k -> new LinkedHashMap<>()).put(h.id(), h);
    size++;
    Outcome held = Outcome.count(1, null);
    return keys ? MergedQuery.filledKeys(held, plan.fill()) : held;
  }

  /**
   * A statement naming a table with held rows: the UPDATE that gives one its key runs here (null
   * when the statement does not concern held rows: it takes the normal path); any other is refused.
   */
  Outcome intercept(RouteTemplate t, Object[] values, RouteContext rc, ShardCall call, boolean keys, Statement owner)
      throws SQLException {
    Map<Long, Held> rows = heldOf(t);
    if (rows == null || t.type() == StatementType.INSERT || t.type() == StatementType.REPLACE) {
      return null;
    }
    Held h = t.type() == StatementType.UPDATE ? keyed(t, values, rows) : null;
    if (h == null) {
      throw refusal(ShardexError.PENDING_ROW, t.type().name(), rows);
    }
    return send(h, t, values, rc, call, keys, owner);
  }

  /** The held rows of the first table the statement names that has any, or null. */
  private Map<Long, Held> heldOf(RouteTemplate t) throws SQLException {
    for (TableRef ref : t.tables()) {
      TableDef def = cluster.directory().table(ref.name());
      Map<Long, Held> rows = def == null ? null : tables.get(def.name());
      if (rows != null) {
        return rows;
      }
    }
    return null;
  }

  /** The held row an UPDATE of that table names by {@code id = v} while setting its key, or null. */
  private static Held keyed(RouteTemplate t, Object[] values, Map<Long, Held> rows) throws SQLException {
    Held any = rows.values().iterator().next();
    if (t.targetTable() == null || !t.assignments().containsKey(any.def().keyColumn())) {
      return null;
    }
    for (KeyPredicate kp : t.keys()) {
      if (kp.column().scope() == 0 && kp.values().size() == 1 && kp.column().column().equals(any.fill().column())) {
        return rows.get(PendingRoute.idOf(kp.values().get(0), values));
      }
    }
    return null;
  }

  /** The held INSERT, then the UPDATE, on the key's shard (in the transaction); the row is let go once inserted. */
  private Outcome send(Held h, RouteTemplate t, Object[] values, RouteContext rc, ShardCall call, boolean keys,
      Statement owner) throws SQLException {
    try {
      Object key = PendingRoute.keyOf(h.def(), t.assignments().get(h.def().keyColumn()), values, rc);
      int shard = PendingRoute.shardOfKey(h.def(), key, rc);
      LookupWrites.Write write = plan -> {
        Runner.route(plan.withFill(h.fill()), session, h.insert(), false, owner, "INSERT", cluster.fanout());
        forget(h);
        return Runner.route(plan, session, call, keys, owner, "UPDATE", cluster.fanout());
      };
      // the row's lookup entries (its id's, above all) are claimed as for any INSERT, now that its key is known
      LookupWork work = PendingRoute.lookupWork(h.template(), h.def(), h.values(), h.fill(), key, shard, rc);
      return work == null ? write.run(RoutePlan.one(shard, true)) : lookups().run(work, RoutePlan.one(shard, true), null, null, write);
    } finally {
      session.settle(rc.marks(), List.of());
    }
  }

  private LookupWrites lookups() {
    if (lookupWrites == null) {
      lookupWrites = new LookupWrites(cluster.directory(), session, (table, column) -> cluster.schemas().of(table).uniqueKeyOn(column));
    }
    return lookupWrites;
  }

  private void forget(Held h) {
    Map<Long, Held> rows = tables.get(h.def().name());
    rows.remove(h.id());
    size--;
    if (rows.isEmpty()) {
      tables.remove(h.def().name());
    }
  }

  /** Before a commit: refused while rows are held (the transaction stays open). */
  void requireNone() throws SQLException {
    if (size > 0) {
      throw refusal(ShardexError.PENDING_COMMIT, size, tables.values().iterator().next());
    }
  }

  /** Savepoints while rows are held: refused (rolling back to one could not say which held rows to keep). */
  void requireNoneFor(String what) throws SQLException {
    if (size > 0) {
      Held h = tables.values().iterator().next().values().iterator().next();
      throw ShardexError.UNSUPPORTED.exception(what + " while rows inserted into " + h.def().name() + " without their key "
          + h.def().keyColumn() + " are held", "set their key first (UPDATE ... SET " + h.def().keyColumn() + " = ? WHERE "
          + h.fill().column() + " = ?), or set the savepoint before inserting them");
    }
  }

  /** The transaction rolled back: nothing held was ever sent. */
  void clear() {
    tables.clear();
    size = 0;
  }

  private static SQLException refusal(ShardexError error, Object first, Map<Long, Held> rows) {
    Held h = rows.values().iterator().next();
    String table = h.def().name();
    String key = h.def().keyColumn();
    String id = h.fill().column();
    return error.exception(first, table, key, id, ids(rows), table, key, id);
  }

  /** The first few held ids, for a message. */
  private static String ids(Map<Long, Held> rows) {
    StringBuilder s = new StringBuilder();
    for (Long id : rows.keySet()) {
      if (s.length() > 60) {
        return s.append(", ...").toString();
      }
      s.append(s.length() == 0 ? "" : ", ").append(id);
    }
    return s.toString();
  }
}
