package dev.shardex.driver.jdbc;

import dev.shardex.directory.Lookup;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import dev.shardex.driver.Cluster;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.plan.LookupJoin;
import dev.shardex.driver.plan.Values;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.NumberedParameters;
import dev.shardex.driver.sql.SubqueryPullOut;
import dev.shardex.driver.sql.JoinSplit;
import dev.shardex.driver.sql.JoinSplitter;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ShardSql;
import dev.shardex.driver.sql.TableRef;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A SELECT whose SHARDED tables live apart (the router's {@code JOIN} plan): split into a driving
 * and a dependent statement ({@link JoinSplitter}) and answered by a {@link LookupJoin}, whose two
 * statements run back through the pipeline like any other. A statement the splitter cannot answer
 * exactly is refused with SHX1206 and the reason.
 */
final class JoinQuery {
  /** Distinct join values per dependent statement. */
  static final int BATCH = 500;

  private final Cluster cluster;
  private final ShardSession session;
  private final Pipeline pipeline;

  JoinQuery(Cluster cluster, ShardSession session, Pipeline pipeline) {
    this.cluster = cluster;
    this.session = session;
    this.pipeline = pipeline;
  }

  /** The split of a statement's text, or the refusal that names its tables and the reason. */
  JoinSplit split(RouteTemplate t, String text, Object[] values) throws SQLException {
    String[] refused = new String[1];
    JoinSplit split = cluster.templates().crossShard(version() + "|join|" + text, () -> {
      try {
        return JoinSplitter.split(text, catalog());
      } catch (JoinSplitter.Refused e) {
        refused[0] = e.getMessage();
        return null;
      }
    });
    if (split == null) {
      throw refusal(t, values, refused[0] != null ? refused[0] : refusedAgain(text));
    }
    return split;
  }

  /** The splitter's reason for a statement whose refusal is cached (so it is not parsed on every try). */
  private String refusedAgain(String text) throws SQLException {
    try {
      JoinSplitter.split(text, catalog());
      return "its catalog changed meanwhile: run it again";
    } catch (JoinSplitter.Refused e) {
      return e.getMessage();
    }
  }

  /** What a cached split depends on: the catalog (declarations, lookups) and the tables' columns (re-read after DDL). */
  private String version() {
    return cluster.directory().catalogVersion() + "." + cluster.schemas().loads();
  }

  private SubqueryPullOut.Plan pullOut(String text) throws SQLException {
    return cluster.templates().crossShard(version() + "|pull-out|" + text,
        () -> SubqueryPullOut.of(text, catalog()));
  }

  /** EXPLAIN ROUTE's rows for a cross-shard join: one per step, shard_id NULL (each step is routed when it runs). */
  List<Object[]> explain(RouteTemplate t, String text, Object[] values) throws SQLException {
    SubqueryPullOut.Plan pullOut = pullOut(text);
    if (pullOut != null) {
      List<Object[]> rows = new ArrayList<>();
      for (int k = 0; k < pullOut.subs().size(); k++) {
        rows.add(new Object[] {null, pullOut.subs().get(k).sql(),
            "subquery " + (k + 1) + ", run first as a statement of its own: its distinct values replace it"});
      }
      rows.add(new Object[] {null, NumberedParameters.print(pullOut.marked()).sql(),
          "then the statement, with each subquery's values written in (x IN (...), or FALSE / TRUE for NOT IN when it has none), routed by them"});
      return rows;
    }
    JoinSplit s = split(t, text, values);
    String kind = s.left() ? "LEFT" : "inner";
    return List.of(
        new Object[] {null, s.driving() + " LIMIT " + cluster.config().maxMergeRows(),
            "lookup join (" + kind + "), step 1: the driving rows, routed as a statement of their own"},
        new Object[] {null, s.dependent() + "?, ...)", "lookup join (" + kind + "), step 2: " + s.table() + " rows by "
            + s.joinColumn() + " IN (at most " + BATCH + " distinct join values per statement), routed by those values"});
  }

  Outcome run(RouteTemplate t, Object[] values, String text, Statement owner) throws SQLException {
    SubqueryPullOut.Plan pullOut = pullOut(text);
    if (pullOut != null) {
      return pulledOut(pullOut, values, owner);
    }
    LookupJoin join = new LookupJoin(split(t, text, values), BATCH, (int) Math.min(Integer.MAX_VALUE - 1, cluster.config().maxMergeRows()));
    ResultSet rows = join.run(values, (sql, params) -> query(sql, params, owner));
    return new Outcome(rows, -1, null);
  }

  /**
   * Runs each IN subquery as a statement of its own, writes its distinct values into the statement
   * and runs that (routed afresh: by the key, if the values are keys).
   */
  private Outcome pulledOut(SubqueryPullOut.Plan plan, Object[] values, Statement owner) throws SQLException {
    List<List<Object>> answers = new ArrayList<>();
    List<Object> all = new ArrayList<>();
    long cap = cluster.config().maxMergeRows();
    for (SubqueryPullOut.Sub sub : plan.subs()) {
      java.util.LinkedHashSet<Object> distinct = new java.util.LinkedHashSet<>();
      try (ResultSet rs = query(sub.sql(), Values.pick(values, sub.params()), owner)) {
        while (rs.next()) {
          distinct.add(rs.getObject(1));
          if (distinct.size() > cap) {
            throw ShardexError.JOIN_TOO_LARGE.exception(sub.sql(), "subquery", cap);
          }
        }
      }
      answers.add(new ArrayList<>(distinct)); // a NULL stays: x IN (1, NULL) is NULL, not FALSE
      all.addAll(distinct);
    }
    NumberedParameters.Text text = plan.substitute(answers, values.length);
    Object[] bound = Values.pick(Values.concat(values, all), text.order());
    return run(text.sql(), bound, owner);
  }

  private ResultSet query(String sql, Object[] values, Statement owner) throws SQLException {
    return run(sql, values, owner).resultSet();
  }

  private Outcome run(String sql, Object[] values, Statement owner) throws SQLException {
    RouteTemplate t = cluster.templates().prepared(sql);
    ShardCall call = (lease, shard, plan) -> {
      ShardSql q = plan.sqlFor(sql, shard);
      PreparedStatement ps = lease.prepare(q.text(), false);
      ShardexStatement.configure(owner, lease, ps);
      if (q.params() == null) {
        MergeSource.bindLiterals(ps, all(values.length), values);
      } else {
        MergeSource.bindLiterals(ps, q.params(), values);
      }
      ps.execute();
      return ps;
    };
    return pipeline.run(t, values, sql, call, false, owner, MergeSource.literals(sql, values));
  }

  private static int[] all(int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }

  private JoinSplitter.Catalog catalog() {
    return new JoinSplitter.Catalog() {
      @Override
      public TableDef def(String table) {
        try {
          return cluster.directory().table(table);
        } catch (SQLException e) {
          return null;
        }
      }

      @Override
      public List<String> columns(String table) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String c : cluster.schemas().of(table).columnNames()) {
          out.add(c.toLowerCase(Locale.ROOT));
        }
        return out;
      }

      @Override
      public boolean routable(String table, String column) {
        TableDef def = def(table);
        if (def != null && def.keyColumn() != null && def.keyColumn().equalsIgnoreCase(column)) {
          return true;
        }
        try {
          for (Lookup l : cluster.directory().lookups().of(table)) {
            if (l.column().equalsIgnoreCase(column)) {
              return true;
            }
          }
        } catch (SQLException e) {
          return false;
        }
        return false;
      }
    };
  }

  /**
   * The statement's own refusal when no cross-shard step answers it: routed again as a dry run
   * without cross-shard steps; a join not on the key gets the reason the lookup join gave.
   */
  private SQLException refusal(RouteTemplate t, Object[] values, String reason) throws SQLException {
    try {
      Router.route(t, values, cluster.routeContext(session.transactionShard(), session.heldGuards()).singleStepDryRun());
    } catch (SQLException e) {
      if (!ShardexError.JOIN_NOT_ON_KEY.is(e)) {
        return e;
      }
    }
    return joinRefusal(t, reason);
  }

  private SQLException joinRefusal(RouteTemplate t, String reason) throws SQLException {
    List<String> names = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (TableRef ref : t.tables()) {
      TableDef def = cluster.directory().table(ref.name());
      if (def != null && def.kind() == TableKind.SHARDED && !names.contains(def.name())) {
        names.add(def.name());
        keys.add(def.name() + "." + def.keyColumn());
      }
    }
    return ShardexError.JOIN_NOT_ON_KEY.exception(String.join(", ", names), String.join(", ", keys),
        "a cross-shard lookup join does not apply (" + reason + ")");
  }
}
