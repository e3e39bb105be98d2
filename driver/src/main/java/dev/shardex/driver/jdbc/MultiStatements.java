package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.Analysis;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Runs multi-statement text for a logical connection. */
final class MultiStatements {
  private final ShardexConnection conn;

  MultiStatements(ShardexConnection conn) {
    this.conn = conn;
  }

  /**
   * Multi-statement text. When every part routes to the same single shard and none is a session,
   * transaction or DDL statement, the whole text goes in one round trip (allowMultiQueries is on
   * for shard connections); otherwise each part is routed and run on its own, in order.
   */
  MultiResults run(List<String> parts, String sql, Statement owner) throws SQLException {
    List<RoutePlan> plans = new ArrayList<>();
    boolean oneTrip = true;
    Integer shard = null;
    boolean write = false;
    try {
      for (String part : parts) {
        Analysis a = conn.cluster().templates().plain(part);
        switch (a.template().type()) {
          case SESSION, TRANSACTION, EXPLAIN_ROUTE, DDL -> oneTrip = false;
          default -> { }
        }
        if (!oneTrip) {
          break;
        }
        RoutePlan plan = conn.planFor(a.template(), a.literals());
        plans.add(plan);
        write |= plan.write();
        if (plan.fanout() != Fanout.ONE || (shard != null && shard != plan.single())) {
          oneTrip = false;
          break;
        }
        shard = plan.single();
      }
      if (oneTrip) {
        conn.session().checkScope(List.of(shard), write);
        ShardLease lease = conn.session().acquire(shard, write, true);
        Statement physical = null;
        try {
          physical = lease.connection().createStatement();
          ShardexStatement.configure(owner, physical);
          conn.session().metrics().roundTrip();
          physical.execute(sql);
          return MultiResults.physical(physical, lease, owner);
        } catch (SQLException e) {
          dev.shardex.driver.merge.Closing.closeAll(java.util.Arrays.asList(physical, lease));
          throw lease.translate(e);
        }
      }
    } finally {
      plans.forEach(p -> conn.session().settle(p.guards()));
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (String part : parts) {
      Analysis a = conn.cluster().templates().plain(part);
      ShardCall call = (c, s, plan) -> {
        Statement st = c.createStatement();
        ShardexStatement.configure(owner, st);
        st.execute(plan.sqlFor(part, s).text());
        return st;
      };
      outcomes.add(conn.run(a.template(), a.literals(), part, call, false, owner, MergeSource.literals(a.text(), a.literals())));
    }
    return MultiResults.sequence(outcomes);
  }
}
