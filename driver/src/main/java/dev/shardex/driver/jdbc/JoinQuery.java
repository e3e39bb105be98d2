package dev.shardex.driver.jdbc;

import dev.shardex.directory.Lookup;
import dev.shardex.directory.ShardexError;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import dev.shardex.driver.Cluster;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.plan.LookupJoin;
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
  private final Pipeline pipeline;

  JoinQuery(Cluster cluster, Pipeline pipeline) {
    this.cluster = cluster;
    this.pipeline = pipeline;
  }

  /** The split of a statement's text, or the refusal that names its tables and the reason. */
  JoinSplit split(RouteTemplate t, String text) throws SQLException {
    try {
      return JoinSplitter.split(text, catalog());
    } catch (JoinSplitter.Refused e) {
      throw refusal(t, e.getMessage());
    }
  }

  /** EXPLAIN ROUTE's rows for a cross-shard join: one per step, shard_id NULL (each step is routed when it runs). */
  List<Object[]> explain(RouteTemplate t, String text) throws SQLException {
    JoinSplit s = split(t, text);
    String kind = s.left() ? "LEFT" : "inner";
    return List.of(
        new Object[] {null, s.driving() + " LIMIT " + cluster.config().maxMergeRows(),
            "lookup join (" + kind + "), step 1: the driving rows, routed as a statement of their own"},
        new Object[] {null, s.dependent() + "?, ...)", "lookup join (" + kind + "), step 2: " + s.table() + " rows by "
            + s.joinColumn() + " IN (at most " + BATCH + " distinct join values per statement), routed by those values"});
  }

  Outcome run(RouteTemplate t, Object[] values, String text, Statement owner) throws SQLException {
    LookupJoin join = new LookupJoin(split(t, text), BATCH, (int) Math.min(Integer.MAX_VALUE - 1, cluster.config().maxMergeRows()));
    ResultSet rows = join.run(values, (sql, params) -> query(sql, params, owner));
    return new Outcome(rows, -1, null);
  }

  private ResultSet query(String sql, Object[] values, Statement owner) throws SQLException {
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
    return pipeline.run(t, values, sql, call, false, owner, MergeSource.literals(sql, values)).resultSet();
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

  private SQLException refusal(RouteTemplate t, String reason) throws SQLException {
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
