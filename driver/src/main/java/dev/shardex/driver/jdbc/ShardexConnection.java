package dev.shardex.driver.jdbc;

import dev.shardex.directory.Directory;
import dev.shardex.directory.ShardexError;
import dev.shardex.driver.Cluster;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.PlanExecutor;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.merge.InMemoryResults;
import dev.shardex.driver.merge.Merger;
import dev.shardex.driver.merge.ShardResultSet;
import dev.shardex.driver.sql.MergeSpec;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.Analyzer;
import dev.shardex.driver.sql.RouteTemplate;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * A logical connection: the thin JDBC face over the pipeline. Statements hand it a template and
 * values; it runs session and transaction statements itself and sends the rest through
 * route -> execute (-> merge, inside the executor's result sets).
 */
public final class ShardexConnection extends UnsupportedConnection {
  private final Cluster cluster;
  private final String url;
  private final ShardSession session;
  private final Set<ShardexStatement> statements = Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean closed;
  private boolean implicitTransaction;
  private int savepointCounter;
  private ShardLease metadataLease;
  private RouteContext routing;
  private boolean routingBusy;

  public ShardexConnection(Cluster cluster, String url) {
    this.cluster = cluster;
    this.url = url;
    this.session = new ShardSession(cluster.directory(), cluster.pools(), cluster.config());
    this.session.metrics(cluster.metrics());
    this.session.transactionMode(cluster.config().transactions());
  }

  public Cluster cluster() {
    return cluster;
  }

  ShardSession session() {
    return session;
  }

  RoutePlan planFor(RouteTemplate t, Object[] values) throws SQLException {
    return Router.route(t, values, cluster.routeContext(session.transactionShard(), session.heldGuards()));
  }

  /**
   * This connection's route context, reused by every statement it runs (routing allocates none per
   * execution); a fresh one for a statement that runs while another is still being run.
   */
  private RouteContext routing() {
    if (routingBusy) {
      return cluster.routeContext(session.transactionShard(), session.heldGuards());
    }
    if (routing == null) {
      routing = cluster.routeContext(null, session.heldGuards());
    }
    routingBusy = true;
    return routing.prefer(session.transactionShard());
  }

  MultiResults runMulti(List<String> parts, String sql, Statement owner) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return new MultiStatements(this).run(parts, sql, owner);
  }

  /** The pipeline for one statement execution. */
  Outcome run(RouteTemplate t, Object[] values, String sql, ShardCall call, boolean keys, Statement owner,
      MergeSource merge) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    switch (t.type()) {
      case SESSION:
        applySession(SessionStatements.body(sql));
        return Outcome.count(0, null);
      case TRANSACTION:
        return transaction(SessionStatements.body(sql), call, owner);
      case EXPLAIN_ROUTE:
        return explain(Analyzer.explained(sql));
      default:
        // A read routed by a key that a move flipped meanwhile may have run after the old shard's
        // rows were deleted: route and read again (ReadMarks.current).
        RouteContext rc = routing();
        try {
          for (int attempt = 1; ; attempt++) {
            RoutePlan plan = Router.routeMarked(t, values, rc);
            Outcome out;
            try {
              out = execute(plan, t, values, sql, call, keys, owner, merge);
            } finally {
              session.settle(rc.marks(), plan.guards());
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
  }

  /** Tries a key read makes when the key keeps moving under it (each try follows the latest move). */
  private static final int READ_ATTEMPTS = 5;

  private Outcome execute(RoutePlan plan, RouteTemplate t, Object[] values, String sql, ShardCall call, boolean keys,
      Statement owner, MergeSource merge) throws SQLException {
    if (plan.fanout() == Fanout.MERGE) {
      return new MergedQuery(cluster, session).run(plan, values, merge, owner);
    }
    if (plan.fanout() != Fanout.DDL) {
      SplitInsertKeys split = keys && plan.rows() != null && plan.fill() == null ? new SplitInsertKeys(plan) : null;
      Outcome out = PlanExecutor.execute(plan, session, split == null ? call : split.wrap(call), keys, owner,
          t.type().name(), cluster.fanout());
      if (split != null) {
        return Outcome.count(out.updateCount(), split.inRowOrder());
      }
      return plan.fill() != null && keys ? MergedQuery.filledKeys(out, plan.fill()) : out;
    }
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
      out = PlanExecutor.execute(plan, session, call, false, owner, "DDL '" + abbreviate(sql) + "'", cluster.fanout());
    } catch (SQLException e) {
      if (ShardexError.DDL_PARTIAL.is(e)) {
        recordDeclaration(plan);
      }
      throw e;
    }
    recordDeclaration(plan);
    SQLWarning warning = CreateTableEffects.apply(cluster.directory(), plan, t, sql, createsNew);
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
      session.setCatalog(m.group(1));
    } else if ((m = SessionStatements.match(SessionStatements.AUTOCOMMIT, sql)).matches()) {
      setAutoCommit(SessionStatements.onOff(m.group(1)));
    } else if ((m = SessionStatements.match(SessionStatements.ISOLATION, sql)).matches()) {
      session.setIsolation(SessionStatements.isolation(m.group(1)));
    } else {
      session.addSet(sql);
    }
  }

  private Outcome transaction(String sql, ShardCall call, Statement owner) throws SQLException {
    if (SessionStatements.match(SessionStatements.BEGIN, sql).matches()) {
      if (session.state().autoCommit()) {
        session.setAutoCommit(false);
        implicitTransaction = true;
      }
    } else if (SessionStatements.match(SessionStatements.COMMIT, sql).matches()) {
      commit();
    } else if (SessionStatements.match(SessionStatements.ROLLBACK, sql).matches()) {
      rollback();
    } else {
      // SAVEPOINT, RELEASE SAVEPOINT, ROLLBACK TO, XA: they belong to the transaction's shard.
      Integer shard = session.transactionShard();
      if (shard == null) {
        throw ShardexError.UNSUPPORTED.exception("'" + abbreviate(sql) + "' outside a transaction that has run a statement",
            "run a statement of the transaction first, so it has a shard");
      }
      return PlanExecutor.execute(RoutePlan.one(shard, false), session, call, false, owner, "transaction",
          cluster.fanout());
    }
    return Outcome.count(0, null);
  }

  private Outcome explain(String inner) throws SQLException {
    Analysis a = cluster.templates().plain(inner);
    List<Object[]> rows = new ArrayList<>();
    switch (a.template().type()) {
      case SESSION, TRANSACTION, EXPLAIN_ROUTE -> rows.add(new Object[] {null, inner, null});
      default -> {
        RoutePlan plan = Router.route(a.template(), a.literals(),
            cluster.routeContext(session.transactionShard(), session.heldGuards()).explaining());
        String shards = Router.join(plan.shards());
        MergeSpec spec = plan.fanout() == Fanout.MERGE ? cluster.templates().merge(a.text(), shards) : null;
        String merged = spec == null ? null : new MergedQuery(cluster, session).shardText(spec, a.literals(), shards);
        String merge = spec == null ? null : spec.describe(a.literals()); // the client's part of a merged read
        for (int shard : plan.shards()) {
          if (merged != null) {
            rows.add(new Object[] {shard, merged, merge});
            continue;
          }
          rows.add(new Object[] {shard, plan.sqlFor(inner, shard).text(), null});
        }
      }
    }
    return new Outcome(InMemoryResults.of(List.of("shard_id", "sql_sent", "merge"),
        List.of(Types.INTEGER, Types.VARCHAR, Types.VARCHAR), rows), -1, null);
  }

  private static String abbreviate(String sql) {
    String s = sql.strip().replaceAll("\\s+", " ");
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }

  void forget(ShardexStatement s) {
    statements.remove(s);
  }

  private <T extends ShardexStatement> T track(T s) {
    statements.add(s);
    return s;
  }

  // ---- statements -----------------------------------------------------------------------------------

  @Override
  public Statement createStatement() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return track(new ShardexStatement(this));
  }

  @Override
  public Statement createStatement(int type, int concurrency) throws SQLException {
    checkForwardReadOnly(type, concurrency);
    return createStatement();
  }

  @Override
  public Statement createStatement(int type, int concurrency, int holdability) throws SQLException {
    return createStatement(type, concurrency);
  }

  @Override
  public PreparedStatement prepareStatement(String sql) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return track(new ShardexPreparedStatement(this, sql, false));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return track(new ShardexPreparedStatement(this, sql, autoGeneratedKeys == Statement.RETURN_GENERATED_KEYS));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
    return prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
    return prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int type, int concurrency) throws SQLException {
    checkForwardReadOnly(type, concurrency);
    return prepareStatement(sql);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability) throws SQLException {
    return prepareStatement(sql, type, concurrency);
  }

  private static void checkForwardReadOnly(int type, int concurrency) throws SQLException {
    if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY) {
      throw Jdbc.unsupported("scrollable or updatable result sets");
    }
  }

  @Override
  public String nativeSQL(String sql) {
    return sql;
  }

  // ---- transactions and session ----------------------------------------------------------------------

  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    implicitTransaction = false;
    session.setAutoCommit(autoCommit);
  }

  @Override
  public boolean getAutoCommit() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return session.state().autoCommit();
  }

  @Override
  public void commit() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    session.commit();
    endImplicit();
  }

  @Override
  public void rollback() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    session.rollback();
    endImplicit();
  }

  private void endImplicit() throws SQLException {
    if (implicitTransaction) {
      implicitTransaction = false;
      session.setAutoCommit(true);
    }
  }

  @Override
  public java.sql.Savepoint setSavepoint() throws SQLException {
    return setSavepoint("shx_sp_" + (++savepointCounter));
  }

  @Override
  public java.sql.Savepoint setSavepoint(String name) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    session.savepoint(name);
    int id = savepointCounter;
    return new java.sql.Savepoint() {
      @Override
      public int getSavepointId() {
        return id;
      }

      @Override
      public String getSavepointName() {
        return name;
      }
    };
  }

  @Override
  public void rollback(java.sql.Savepoint savepoint) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    session.rollbackTo(savepoint.getSavepointName());
  }

  @Override
  public void releaseSavepoint(java.sql.Savepoint savepoint) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    session.release(savepoint.getSavepointName());
  }

  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    session.setIsolation(level);
  }

  @Override
  public int getTransactionIsolation() {
    Integer level = session.state().isolation();
    return level == null ? Connection.TRANSACTION_REPEATABLE_READ : level;
  }

  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    session.setReadOnly(readOnly);
  }

  @Override
  public boolean isReadOnly() {
    return session.state().readOnly();
  }

  @Override
  public void setCatalog(String catalog) throws SQLException {
    session.setCatalog(catalog);
  }

  @Override
  public String getCatalog() throws SQLException {
    if (session.state().catalog() != null) {
      return session.state().catalog();
    }
    try (ShardLease lease = session.anyShard()) {
      return lease.connection().getCatalog();
    }
  }

  @Override
  public void setSchema(String schema) {
    // MySQL has catalogs (databases), not schemas; Connector/J ignores this too
  }

  @Override
  public String getSchema() {
    return null;
  }

  // ---- metadata and lifecycle ---------------------------------------------------------------------------

  /**
   * The metadata of one readable shard (all shards share the schema), answering for Shardex where it
   * speaks of the connection itself (its URL, its Connection); the shard connection is held until close.
   */
  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    if (metadataLease == null) {
      metadataLease = session.anyShard();
    }
    return ShardexMetaData.of(metadataLease.connection().getMetaData(), this, url);
  }

  // ---- large objects: made here, bound as values on whichever shard the statement goes to --------------

  @Override
  public java.sql.Clob createClob() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return new LocalClob();
  }

  @Override
  public java.sql.NClob createNClob() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return new LocalClob();
  }

  @Override
  public java.sql.Blob createBlob() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return new LocalBlob();
  }

  @Override
  public boolean isValid(int timeout) {
    return !closed;
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    List<AutoCloseable> all = new ArrayList<>(statements);
    all.add(session::close);
    all.add(metadataLease);
    dev.shardex.driver.merge.Closing.closeAll(all);
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void abort(java.util.concurrent.Executor executor) throws SQLException {
    close();
  }

  @Override
  public SQLWarning getWarnings() {
    return null;
  }

  @Override
  public void clearWarnings() {
    // none kept
  }

  @Override
  public int getHoldability() {
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public void setHoldability(int holdability) {
    // MySQL holds cursors over commit
  }

  @Override
  public Map<String, Class<?>> getTypeMap() {
    return new java.util.HashMap<>();
  }

  @Override
  public void setTypeMap(Map<String, Class<?>> map) {
    // no user-defined types in MySQL
  }

  @Override
  public Properties getClientInfo() {
    return new Properties();
  }

  @Override
  public String getClientInfo(String name) {
    return null;
  }

  @Override
  public int getNetworkTimeout() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return session.state().networkTimeout();
  }

  /** Applies to every shard connection this connection uses, as Connector/J applies it to its socket. */
  @Override
  public void setNetworkTimeout(java.util.concurrent.Executor executor, int milliseconds) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    if (milliseconds < 0) {
      throw new SQLException("Shardex: the network timeout must be 0 or more milliseconds, not " + milliseconds, "HY024");
    }
    session.setNetworkTimeout(executor, milliseconds);
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return dev.shardex.driver.Wrappers.unwrap(this, iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return dev.shardex.driver.Wrappers.isWrapperFor(this, iface);
  }

  @Override
  public String toString() {
    return "ShardexConnection[" + dev.shardex.directory.Redact.url(url) + "]";
  }
}
