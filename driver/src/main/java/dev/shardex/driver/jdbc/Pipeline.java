package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.execute.LookupWrites;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.plan.Operator;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.LookupRoute;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.regex.Matcher;

/**
 * The pipeline behind one logical connection: a statement's template and values go
 * route ({@link Router}) -> plan (a single-step plan needs none; a merged read or a cross-shard
 * join becomes an operator tree, {@link MergedQuery}, {@link JoinQuery}) -> run ({@link Runner}). The statements the driver answers itself
 * (USE, SET, BEGIN/COMMIT/ROLLBACK, EXPLAIN ROUTE) and DDL's catalog effects are handled here too
 * (EXPLAIN of a statement in {@link ExplainQuery}, EXPLAIN [ANALYZE] ROUTE in {@link ExplainRoute});
 * the JDBC classes only translate calls into {@link #run}.
 */
final class Pipeline {
  private final ShardexConnection connection;
  private final Cluster cluster;
  private final ShardSession session;
  private final PendingInserts pending;
  private RouteContext routing;
  private boolean routingBusy;
  private LookupWrites lookupWrites;

  Pipeline(ShardexConnection connection, Cluster cluster, ShardSession session) {
    this.connection = connection;
    this.cluster = cluster;
    this.session = session;
    this.pending = new PendingInserts(cluster, session);
  }

  /** The INSERTs this connection holds until their key arrives. */
  PendingInserts pending() {
    return pending;
  }

  RoutePlan planFor(RouteTemplate t, Object[] values) throws SQLException {
    return Router.route(t, values, cluster.routeContext(session.transactionShard(), session.heldGuards()));
  }

  /** A batch entry's plan: a write to a table with lookup indexes is refused (a JDBC batch cannot keep them). */
  RoutePlan batchPlanFor(RouteTemplate t, Object[] values) throws SQLException {
    if (LookupRoute.maintains(t, cluster.directory())) {
      throw ShardexError.UNSUPPORTED.exception("a batch (addBatch/executeBatch) writing table " + t.targetTable().name()
          + ", which has lookup indexes", "execute its statements one by one (they keep the lookups)");
    }
    RoutePlan plan = planFor(t, values);
    if (plan.fanout() == Fanout.JOIN) { // an INSERT ... SELECT read first: it runs statements of its own
      throw ShardexError.UNSUPPORTED.exception("a batch entry (addBatch/executeBatch) that reads rows on other shards"
          + " before it writes them (INSERT ... SELECT)", "execute it on its own");
    }
    return plan;
  }

  /**
   * One statement execution: the driver's own statements here, the rest route -> execute (-> merge).
   * Either way the logical connection's LAST_INSERT_ID()/ROW_COUNT()/FOUND_ROWS() follow it.
   */
  Outcome run(RouteTemplate t, Object[] values, String sql, ShardCall call, boolean keys, Statement owner,
      MergeSource merge) throws SQLException {
    // telemetry: null when nothing listens (or this runs inside another statement of the connection)
    dev.shardex.driver.events.StatementTrace trace = cluster.metrics().events().begin(session, t, sql);
    try {
      return dispatch(t, values, sql, call, keys, owner, merge);
    } catch (SQLException | RuntimeException e) {
      session.values().failed();
      if (trace != null) {
        trace.failed(e);
      }
      throw e;
    } finally {
      if (trace != null) {
        trace.end();
      }
    }
  }

  private Outcome dispatch(RouteTemplate t, Object[] values, String sql, ShardCall call, boolean keys, Statement owner,
      MergeSource merge) throws SQLException {
    switch (t.type()) {
      case SESSION:
        applySession(SessionStatements.body(sql));
        session.values().updated(0);
        return Outcome.count(0, null);
      case TRANSACTION:
        return counted(transaction(SessionStatements.body(sql), call, owner));
      case EXPLAIN_ROUTE:
        Outcome explained = new ExplainRoute(connection, cluster, session, this).run(sql, owner);
        session.values().selectedUncounted(sql, ValueTracking.NOT_CALC, ValueTracking.COUNT_ROWS);
        return explained;
      case EXPLAIN:
        Outcome plans = new ExplainQuery(cluster, session).run(sql, values,
            t.parameterCount() > 0 && owner instanceof java.sql.PreparedStatement, merge, owner);
        session.values().selectedUncounted(sql, ValueTracking.NOT_CALC, ValueTracking.COUNT_ROWS);
        return plans;
      default:
        return routed(t, values, sql, call, keys, owner, merge);
    }
  }

  private Outcome counted(Outcome out) {
    session.values().updated(out.updateCount());
    return out;
  }

  private Outcome routed(RouteTemplate t, Object[] values, String sql, ShardCall call, boolean keys, Statement owner,
      MergeSource merge) throws SQLException {
    // A read routed by a key that a move flipped meanwhile may have run after the old shard's
    // rows were deleted: route and read again (KeyMarks.current).
    RouteContext rc = routing();
    try {
      Outcome held = pending.any() ? pending.intercept(t, values, rc, call, keys, owner) : null;
      if (held != null) {
        return held;
      }
      for (int attempt = 1; ; attempt++) {
        RoutePlan plan = route(t, values, rc, sql, attempt);
        if (session.running() != null) {
          session.running().routed(plan.fanout(), plan.shards().size());
        }
        Outcome out;
        try {
          out = rc.lookupWork() == null ? execute(plan, t, values, sql, call, keys, owner, merge)
              : lookupWrites().run(rc.lookupWork(), plan, sql, values, p -> execute(p, t, values, sql, call, keys, owner, merge));
        } finally {
          session.settle(rc.marks(), plan.guards());
        }
        if (attempt < READ_ATTEMPTS && LookupRoute.recheck(rc, out)) {
          rc.forgetCachedLookups(); // routed by a cached lookup entry and found no row: ask the directory
          dev.shardex.driver.merge.Closing.closeAll(java.util.Arrays.asList(out.resultSet(), out.generatedKeys()));
          continue;
        }
        if (attempt >= READ_ATTEMPTS || rc.marks().current()) {
          return out;
        }
        dev.shardex.driver.merge.Closing.closeAll(java.util.Arrays.asList(out.resultSet(), out.generatedKeys()));
      }
    } finally {
      rc.marks().clear();
      if (rc == routing) {
        routingBusy = false;
      }
    }
  }

  /** Routes one try; a first try's failure is reported as one that ran on no shard. */
  private static RoutePlan route(RouteTemplate t, Object[] values, RouteContext rc, String sql, int attempt)
      throws SQLException {
    try {
      return Router.routeMarked(t, values, rc);
    } catch (RuntimeException | StackOverflowError e) {
      throw attempt == 1 ? Jdbc.unsent(sql, e) : Jdbc.internal(sql, e);
    }
  }

  /**
   * This connection's route context, reused by every statement it runs (routing allocates none per
   * execution); a fresh one for a statement that runs while another is still being run.
   */
  private RouteContext routing() {
    boolean inTransaction = !session.state().autoCommit();
    if (routingBusy) {
      return cluster.routeContext(session.transactionShard(), session.heldGuards()).holding(inTransaction);
    }
    if (routing == null) {
      routing = cluster.routeContext(null, session.heldGuards());
    }
    routingBusy = true;
    return routing.prefer(session.transactionShard()).holding(inTransaction);
  }

  private LookupWrites lookupWrites() {
    if (lookupWrites == null) {
      lookupWrites = new LookupWrites(cluster.directory(), session, (table, column) -> cluster.schemas().of(table).uniqueKeyOn(column));
    }
    return lookupWrites;
  }

  /** Tries a key read makes when the key keeps moving under it (each try follows the latest move). */
  private static final int READ_ATTEMPTS = 5;

  private Outcome execute(RoutePlan plan, RouteTemplate t, Object[] values, String sql, ShardCall call, boolean keys,
      Statement owner, MergeSource merge) throws SQLException {
    if (plan.fanout() == Fanout.DDL) {
      return counted(ddlOutcome(plan, t, sql, call, owner));
    }
    SessionReads reads = t.functions() == 0 || t.type() != StatementType.SELECT ? null
        : SessionReads.of(t.functions(), plan, sql, session.values());
    Outcome out = shards(plan, t, sql, reads == null ? call : reads.wrap(call), keys, owner, merge, values, reads);
    ValueTracking.after(session.values(), cluster.schemas(), t, plan, values, out, sql, reads);
    return out;
  }

  /** A plan that is not DDL, on its shards (merged or not). */
  private Outcome shards(RoutePlan plan, RouteTemplate t, String sql, ShardCall call, boolean keys, Statement owner,
      MergeSource merge, Object[] values, SessionReads reads) throws SQLException {
    if (plan.fanout() == Fanout.MERGE) {
      JoinQuery joins = new JoinQuery(cluster, session, this);
      return joins.runner(owner, values, false).run(merged(t, plan, values, merge, owner, reads, joins));
    }
    if (plan.fanout() == Fanout.JOIN) {
      return new JoinQuery(cluster, session, this).run(t, values, merge.mergeText(), owner);
    }
    if (plan.fanout() == Fanout.HOLD) {
      return pending.hold(plan, t, values, sql, call, owner, keys);
    }
    SplitInsertKeys split = keys && plan.rows() != null && plan.fill() == null ? new SplitInsertKeys(plan) : null;
    boolean replica = session.replicaEligible() && ReplicaSafe.select(t, plan, sql);
    Outcome out;
    if (replica) {
      session.replicaRead(true);
    }
    try {
      out = Runner.route(plan, session, split == null ? call : split.wrap(call), keys, owner, t.type().name(),
          cluster.fanout());
    } finally {
      if (replica) {
        session.replicaRead(false);
      }
    }
    if (split != null) {
      return Outcome.count(out.updateCount(), split.inRowOrder(), out.insertId());
    }
    return plan.fill() != null && keys ? MergedQuery.filledKeys(out, plan.fill()) : out;
  }

  /**
   * A merged read's tree; what the merge stage cannot fold from per-shard parts (SHX1207: GROUP_CONCAT,
   * WITH ROLLUP, window functions, aggregates inside expressions) is run whole by one shard over the
   * rows, when they fit shardex.maxMergeRows ({@link JoinQuery#pushed}).
   */
  Operator merged(RouteTemplate t, RoutePlan plan, Object[] values, MergeSource merge, Statement owner, SessionReads reads,
      JoinQuery joins) throws SQLException {
    try {
      return new MergedQuery(cluster, session).plan(plan, values, merge, owner, reads,
          Router.windows(t, cluster.directory()));
    } catch (SQLException e) {
      if (!ShardexError.CROSS_SHARD.is(e) || reads != null) {
        throw e;
      }
      return joins.pushed(merge.mergeText(), e);
    }
  }

  private Outcome ddlOutcome(RoutePlan plan, RouteTemplate t, String sql, ShardCall call, Statement owner)
      throws SQLException {
    try {
      return ddl(plan, call, owner, sql, t);
    } finally {
      cluster.schemas().forget(t.ddl().tables()); // and anything read while it ran
    }
  }

  private Outcome ddl(RoutePlan plan, ShardCall call, Statement owner, String sql, RouteTemplate t) throws SQLException {
    boolean createsNew = CreateTableEffects.createsNew(t, cluster.directory());
    Outcome out;
    cluster.schemas().forget(t.ddl().tables()); // columns and keys are read again on next use
    try {
      out = Runner.route(plan, session, call, false, owner, "DDL '" + SqlLexer.abbreviate(sql) + "'", cluster.fanout());
    } catch (SQLException e) {
      if (ShardexError.DDL_PARTIAL.is(e)) {
        recordDeclaration(plan);
      }
      throw e;
    }
    recordDeclaration(plan);
    SQLWarning warning = CreateTableEffects.apply(cluster.directory(), plan, t, sql, createsNew,
        id -> cluster.pools().borrow(cluster.directory().shards().get(id)));
    if (t.ddl().verb() == dev.shardex.driver.sql.Ddl.Verb.RENAME) {
      cluster.directory().lookups().rename(t.ddl().tables().get(0), t.ddl().tables().get(1));
    }
    for (String dropped : plan.undeclare()) {
      cluster.directory().undeclare(dropped);
    }
    if (warning != null) {
      warning.setNextWarning(out.warnings());
      return new Outcome(out.resultSet(), out.updateCount(), out.generatedKeys(), warning);
    }
    return out;
  }

  private void recordDeclaration(RoutePlan plan) throws SQLException {
    if (plan.declare() != null) {
      cluster.directory().declare(plan.declare());
    }
  }

  private void applySession(String sql) throws SQLException {
    Matcher m;
    if ((m = SessionStatements.match(SessionStatements.USE, sql)).matches()) {
      session.changes().setCatalog(m.group(1));
    } else if ((m = SessionStatements.match(SessionStatements.AUTOCOMMIT, sql)).matches()) {
      connection.setAutoCommit(SessionStatements.onOff(m.group(1)));
    } else if ((m = SessionStatements.match(SessionStatements.ISOLATION, sql)).matches()) {
      session.changes().setIsolation(SessionStatements.isolation(m.group(1)));
    } else {
      session.changes().addSet(sql);
    }
  }

  private Outcome transaction(String sql, ShardCall call, Statement owner) throws SQLException {
    if (SessionStatements.match(SessionStatements.BEGIN, sql).matches()) {
      connection.beginImplicit();
    } else if (SessionStatements.match(SessionStatements.COMMIT, sql).matches()) {
      connection.commit();
    } else if (SessionStatements.match(SessionStatements.ROLLBACK, sql).matches()) {
      connection.rollback();
    } else {
      // SAVEPOINT, RELEASE SAVEPOINT, ROLLBACK TO, XA: they belong to the transaction's shard.
      pending.requireNoneFor("'" + SqlLexer.abbreviate(sql) + "'");
      Integer shard = session.transactionShard();
      if (shard == null) {
        throw ShardexError.UNSUPPORTED.exception("'" + SqlLexer.abbreviate(sql) + "' outside a transaction that has run a statement",
            "run a statement of the transaction first, so it has a shard");
      }
      return Runner.route(RoutePlan.one(shard, false), session, call, false, owner, "transaction",
          cluster.fanout());
    }
    return Outcome.count(0, null);
  }
}
