package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.merge.Closing;
import dev.shardex.driver.merge.InMemoryResults;
import dev.shardex.driver.merge.ShardResultSet;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.ExplainText;
import dev.shardex.driver.sql.MergeSpec;
import dev.shardex.driver.sql.ShardSql;
import dev.shardex.driver.sql.SqlLexer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * EXPLAIN (or DESCRIBE) of a statement. The statement is routed exactly as it would run (the same
 * template cache and router), as a dry run that places no key and takes no sequence id, and each
 * shard it routes to explains its own share: its part of a split INSERT or IN list, or, for a merged
 * read, the rewritten text the merge really sends. Nothing runs the statement itself.
 *
 * <p>The answer is one result set: every row of each shard's plan, in the plan's shard order, led
 * by a {@code shard_id} column. One-shard plans get the column too, so the shape never depends on
 * where the keys live.
 */
final class ExplainQuery {
  private final Cluster cluster;
  private final ShardSession session;

  ExplainQuery(Cluster cluster, ShardSession session) {
    this.cluster = cluster;
    this.session = session;
  }

  /** {@code values} and {@code bound} are the prepared statement's, when the EXPLAIN has ? markers. */
  Outcome run(String sql, Object[] values, boolean prepared, MergeSource bound, Statement owner) throws SQLException {
    ExplainText e = ExplainText.of(sql); // not null, and no ANALYZE form: the Analyzer made the template
    Analysis inner = prepared ? new Analysis(cluster.templates().prepared(e.statement()), values, e.statement())
        : cluster.templates().plain(e.statement());
    MergeSource binds = prepared ? bound : MergeSource.literals(inner.text(), inner.literals());
    RoutePlan plan = Router.route(inner.template(), inner.literals(), cluster.routeContext(session.transactionShard(),
        session.heldGuards()).explainingWithoutIds());
    try {
      ShardCall call = call(e.prefix(), shardTexts(plan, inner), binds, owner);
      session.checkScope(plan.shards(), false);
      return new Outcome(labelled(plan.shards(), Runner.parallel(plan, session, call, owner, cluster.fanout())),
          -1, null);
    } finally {
      session.settle(plan.guards());
    }
  }

  /** What each shard explains: the merge's rewritten text for a merged read, else the shard's share. */
  private ShardTexts shardTexts(RoutePlan plan, Analysis inner) throws SQLException {
    int[] all = IntStream.range(0, SqlLexer.countParameters(inner.text())).toArray();
    if (plan.fanout() != Fanout.MERGE) {
      return shard -> ShardTexts.orAll(plan.sqlFor(inner.text(), shard), all);
    }
    String shards = Router.join(plan.shards());
    MergeSpec spec = cluster.templates().merge(inner.text(), shards, Router.windows(inner.template(), cluster.directory()));
    ShardSql merged = new ShardSql(new MergedQuery(cluster, session).shardText(spec, inner.literals(), shards, 0),
        spec.params());
    return shard -> merged;
  }

  /** The text one shard explains and the parameters (0-based) it binds. */
  @FunctionalInterface
  private interface ShardTexts {
    ShardSql of(int shard) throws SQLException;

    static ShardSql orAll(ShardSql q, int[] all) {
      return q.params() == null ? new ShardSql(q.text(), all) : q;
    }
  }

  private static ShardCall call(String prefix, ShardTexts texts, MergeSource binds, Statement owner) {
    return (lease, shard, plan) -> {
      ShardSql q = texts.of(shard);
      PreparedStatement ps = lease.prepare(prefix + q.text(), false);
      ShardexStatement.configure(owner, lease, ps);
      binds.bindChosen(ps, q.params());
      ps.execute();
      return ps;
    };
  }

  /** The shards' plans as one result set in memory, each row led by its shard's id. */
  private static ResultSet labelled(List<Integer> shards, List<ShardResultSet> parts) throws SQLException {
    try {
      ResultSetMetaData meta = parts.get(0).getMetaData();
      List<String> names = new ArrayList<>(List.of("shard_id"));
      List<Integer> types = new ArrayList<>(List.of(Types.INTEGER));
      for (int c = 1; c <= meta.getColumnCount(); c++) {
        names.add(meta.getColumnLabel(c));
        types.add(meta.getColumnType(c));
      }
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < parts.size(); i++) {
        rows.addAll(rowsOf(shards.get(i), parts.get(i), names.size()));
      }
      return InMemoryResults.of(names, types, rows);
    } finally {
      Closing.closeAll(parts);
    }
  }

  private static List<Object[]> rowsOf(int shard, ResultSet rs, int width) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    while (rs.next()) {
      Object[] row = new Object[width];
      row[0] = shard;
      for (int c = 1; c < width; c++) {
        row[c] = rs.getObject(c);
      }
      rows.add(row);
    }
    return rows;
  }
}
