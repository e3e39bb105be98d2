package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A logical connection: the thin JDBC face over the pipeline. Statements hand it a template and
 * values; it runs session and transaction statements itself and sends the rest through
 * route -> execute (-> merge, inside the executor's result sets).
 */
public final class ShardexConnection extends ConnectionDefaults {
  private final Cluster cluster;
  private final String url;
  private final ShardSession session;
  private final Pipeline pipeline;
  private final Set<ShardexStatement> statements = Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean closed;
  private boolean implicitTransaction;
  private int savepointCounter;
  private ShardLease metadataLease;

  public ShardexConnection(Cluster cluster, String url) {
    this.cluster = cluster;
    this.url = url;
    this.session = new ShardSession(cluster.directory(), cluster.pools(), cluster.config());
    this.session.metrics(cluster.metrics());
    this.session.transactionMode(cluster.config().transactions());
    var ask = cluster.config().replicaAsk();
    if (ask != null) {
      this.session.replicaReads(new dev.shardex.driver.execute.ReplicaReads(ask, cluster.directory(), cluster::replicaHealth));
    }
    this.pipeline = new Pipeline(this, cluster, session);
  }

  public Cluster cluster() {
    return cluster;
  }

  ShardSession session() {
    return session;
  }

  /** Whether this connection holds INSERTs waiting for their key (a batch then runs entry by entry). */
  boolean holdsInserts() {
    return pipeline.pending().any();
  }

  RoutePlan planFor(RouteTemplate t, Object[] values) throws SQLException {
    return pipeline.planFor(t, values);
  }

  /** A batch entry's plan; a write that must keep lookup indexes is refused. */
  RoutePlan batchPlanFor(RouteTemplate t, Object[] values) throws SQLException {
    return pipeline.batchPlanFor(t, values);
  }

  MultiResults runMulti(List<String> parts, String sql, Statement owner) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return new MultiStatements(this).run(parts, sql, owner);
  }

  /** One statement execution, through the pipeline. */
  Outcome run(RouteTemplate t, Object[] values, String sql, ShardCall call, boolean keys, Statement owner,
      MergeSource merge) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return pipeline.run(t, values, sql, call, keys, owner, merge);
  }

  /** The text with this connection's LAST_INSERT_ID(), ROW_COUNT() and FOUND_ROWS() written in as literals. */
  String withSessionValues(String sql) throws SQLException {
    try {
      return dev.shardex.driver.sql.SessionFunctions.substitute(sql, session.values());
    } catch (SQLException e) {
      session.values().failed(); // a refused statement is a failed one: ROW_COUNT() is -1, as after any error
      throw e;
    }
  }

  /** A self-contained text run as a plain statement would run it (a prepared statement whose values were written in). */
  Outcome runText(String text, boolean keys, Statement owner) throws SQLException {
    dev.shardex.driver.sql.Analysis a = cluster.templates().plain(text);
    return run(a.template(), a.literals(), text, ShardexStatement.plainCall(text, keys, owner), keys, owner,
        MergeSource.literals(a.text(), a.literals()));
  }

  /** BEGIN / START TRANSACTION in autocommit mode: a transaction that COMMIT or ROLLBACK ends, autocommit again. */
  void beginImplicit() throws SQLException {
    if (session.state().autoCommit()) {
      session.setAutoCommit(false);
      implicitTransaction = true;
    }
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
  public PreparedStatement prepareStatement(String sql) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return track(new ShardexPreparedStatement(this, sql, false));
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return track(new ShardexPreparedStatement(this, sql, autoGeneratedKeys == Statement.RETURN_GENERATED_KEYS));
  }

  // ---- transactions and session ----------------------------------------------------------------------

  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    if (autoCommit && !session.state().autoCommit()) {
      pipeline.pending().requireNone(); // switching autocommit on commits
    }
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
    pipeline.pending().requireNone();
    session.commit();
    endImplicit();
  }

  @Override
  public void rollback() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    pipeline.pending().clear();
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
    pipeline.pending().requireNoneFor("setSavepoint");
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
    pipeline.pending().clear(); // none was held when the savepoint was set
  }

  @Override
  public void releaseSavepoint(java.sql.Savepoint savepoint) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    session.release(savepoint.getSavepointName());
  }

  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    session.changes().setIsolation(level);
  }

  @Override
  public int getTransactionIsolation() {
    Integer level = session.state().isolation();
    return level == null ? Connection.TRANSACTION_REPEATABLE_READ : level;
  }

  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    session.changes().setReadOnly(readOnly);
  }

  @Override
  public boolean isReadOnly() {
    return session.state().readOnly();
  }

  @Override
  public void setCatalog(String catalog) throws SQLException {
    session.changes().setCatalog(catalog);
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
    pipeline.pending().clear(); // the session rolls the transaction back
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
  public int getNetworkTimeout() throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    return session.state().networkTimeout();
  }

  /** Applies to every shard connection this connection uses, as Connector/J applies it to its socket. */
  @Override
  public void setNetworkTimeout(java.util.concurrent.Executor executor, int milliseconds) throws SQLException {
    Jdbc.checkOpen(closed, "connection");
    if (milliseconds < 0) {
      throw ShardexError.BAD_OPTION.exception("networkTimeout", milliseconds, "it must be 0 or more milliseconds");
    }
    session.changes().setNetworkTimeout(executor, milliseconds);
  }

  @Override
  public String toString() {
    return "ShardexConnection[" + dev.shardex.directory.Redact.url(url) + "]";
  }
}
