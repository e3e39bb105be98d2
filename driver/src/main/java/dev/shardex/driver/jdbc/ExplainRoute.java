package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.execute.Metrics;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.merge.InMemoryResults;
import dev.shardex.driver.plan.Explain;
import dev.shardex.driver.plan.Operator;
import dev.shardex.driver.plan.Route;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.Analyzer;
import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.driver.sql.StatementType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code EXPLAIN ROUTE <sql>} (the operator tree a statement would run, nothing run) and
 * {@code EXPLAIN ANALYZE ROUTE <select>} (the tree run, each node's figures), answered by the driver.
 */
final class ExplainRoute {
  private final ShardexConnection connection;
  private final Cluster cluster;
  private final ShardSession session;
  private final Pipeline pipeline;

  ExplainRoute(ShardexConnection connection, Cluster cluster, ShardSession session, Pipeline pipeline) {
    this.connection = connection;
    this.cluster = cluster;
    this.session = session;
    this.pipeline = pipeline;
  }

  /**
   * EXPLAIN ROUTE runs nothing on a shard (it may read a table's columns there), so a failure says
   * so; EXPLAIN ANALYZE ROUTE runs the SELECT and gives each step's figures.
   */
  Outcome run(String sql, Statement owner) throws SQLException {
    String analysed = Analyzer.analysed(sql);
    if (analysed != null) {
      return analyse(analysed, owner);
    }
    try {
      return explain(Analyzer.explained(sql));
    } catch (RuntimeException | StackOverflowError e) {
      throw Jdbc.unsent(sql, e);
    }
  }

  private Outcome explain(String explained) throws SQLException {
    Analysis a = cluster.templates().plain(explained);
    String inner = explained;
    if (a.template().readsSession()) {
      inner = connection.withSessionValues(explained); // routed as it would run now
      a = cluster.templates().plain(inner);
    }
    List<Object[]> rows = new ArrayList<>();
    switch (a.template().type()) {
      case SESSION, TRANSACTION, EXPLAIN_ROUTE -> rows.add(new Object[] {null, inner, null, "1", "run by the driver itself", "0"});
      default -> rows.addAll(Explain.rows(tree(a, inner, null), a.literals()));
    }
    return table(Explain.COLUMNS, rows);
  }

  /** The operator tree a statement would run, routed as it would run now. */
  private Operator tree(Analysis a, String inner, Statement owner) throws SQLException {
    RoutePlan plan = Router.route(a.template(), a.literals(),
        cluster.routeContext(session.transactionShard(), session.heldGuards()).explaining());
    if (plan.fanout() == Fanout.JOIN) {
      return new JoinQuery(cluster, session, pipeline).plan(a.template(), a.text(), a.literals());
    }
    if (plan.fanout() == Fanout.MERGE) {
      return pipeline.merged(a.template(), plan, a.literals(), MergeSource.literals(a.text(), a.literals()), owner, null,
          new JoinQuery(cluster, session, pipeline));
    }
    return new Route(plan, inner, new BoundCall(inner, null, null));
  }

  /** Runs a SELECT through its tree with the runner counting, and returns each node's figures. */
  private Outcome analyse(String sql, Statement owner) throws SQLException {
    Analysis a = cluster.templates().plain(sql);
    if (a.template().type() != StatementType.SELECT || a.template().readsSession()) {
      throw ShardexError.UNSUPPORTED.exception("EXPLAIN ANALYZE ROUTE of '" + SqlLexer.abbreviate(sql) + "'",
          "it runs the statement, so it takes a SELECT that reads no session value; use EXPLAIN ROUTE for the others");
    }
    Operator root = tree(a, sql, owner);
    Metrics shared = session.metrics();
    session.metrics(Metrics.within(shared)); // this statement's own round trips, still counted in the cluster's
    try {
      Runner run = new Runner(session, cluster.fanout(), owner, a.literals(), cluster.config().maxMergeRows(),
          new JoinQuery(cluster, session, pipeline).steps(owner), true);
      return table(Explain.ANALYSED, Explain.analyse(root, run));
    } finally {
      session.metrics(shared);
    }
  }

  private static Outcome table(List<String> columns, List<Object[]> rows) throws SQLException {
    List<Integer> types = new ArrayList<>();
    for (String c : columns) {
      types.add(c.equals("shard_id") || c.equals("rows") || c.equals("held_bytes") ? Types.BIGINT : Types.VARCHAR);
    }
    return new Outcome(InMemoryResults.of(columns, types, rows), -1, null);
  }
}
