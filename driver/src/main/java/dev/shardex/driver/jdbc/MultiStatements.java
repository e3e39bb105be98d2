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
   * Routes every part (a dry run: no key is placed) and rewrites every merged SELECT before any
   * part runs, so a text with a refused part is refused whole instead of half applied. Parts after
   * a DDL part are decided when they run: the catalog they route by may be the DDL's doing.
   */
  private void decideAll(List<String> parts) throws SQLException {
    for (String part : parts) {
      Analysis a = conn.cluster().templates().plain(part);
      switch (a.template().type()) {
        case SESSION, TRANSACTION, EXPLAIN_ROUTE, EXPLAIN -> {
          continue;
        }
        case DDL -> {
          return;
        }
        default -> { }
      }
      RoutePlan plan = dev.shardex.driver.route.Router.route(a.template(), a.literals(),
          conn.cluster().routeContext(conn.session().transactionShard(), conn.session().heldGuards()).explaining());
      if (plan.fanout() == Fanout.MERGE) {
        conn.cluster().templates().merge(a.text(), dev.shardex.driver.route.Router.join(plan.shards()));
      }
    }
  }

  /**
   * Multi-statement text. When every part routes to the same single shard and none is a session,
   * transaction or DDL statement, the whole text goes in one round trip (allowMultiQueries is on
   * for shard connections); otherwise each part is routed and run on its own, in order.
   *
   * <p>A text that is a whole transaction of its own ({@code START TRANSACTION; ...; COMMIT}, sent
   * in autocommit mode) also goes in one round trip when its inner parts share one shard:
   * Facebook's "non-stored procedure", whose row locks are never held across a network hop. If a
   * part fails, the server stops there and the shard's transaction is rolled back before the
   * connection goes back to its pool.
   */
  MultiResults run(List<String> parts, String sql, Statement owner) throws SQLException {
    decideAll(parts);
    List<RoutePlan> plans = new ArrayList<>();
    boolean wrapped = parts.size() >= 3 && conn.getAutoCommit()
        && SessionStatements.match(SessionStatements.BEGIN, SessionStatements.body(parts.get(0))).matches()
        && SessionStatements.match(SessionStatements.COMMIT, SessionStatements.body(parts.get(parts.size() - 1))).matches();
    boolean oneTrip = true;
    Integer shard = null;
    boolean write = false;
    try {
      for (String part : wrapped ? parts.subList(1, parts.size() - 1) : parts) {
        Analysis a = conn.cluster().templates().plain(part);
        switch (a.template().type()) {
          case SESSION, TRANSACTION, EXPLAIN_ROUTE, EXPLAIN, DDL -> oneTrip = false;
          default -> { }
        }
        if (!oneTrip || dev.shardex.driver.route.LookupRoute.maintains(a.template(), conn.cluster().directory())) {
          oneTrip = false; // a write that keeps lookup indexes runs on its own, with them
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
          if (wrapped) {
            rollbackQuietly(physical);
          }
          dev.shardex.driver.merge.Closing.closeAll(java.util.Arrays.asList(physical, lease));
          throw lease.translate(e);
        }
      }
    } finally {
      plans.forEach(p -> conn.session().settle(p.guards()));
    }
    List<Outcome> outcomes = new ArrayList<>();
    try {
      for (String part : parts) {
        Analysis a = conn.cluster().templates().plain(part);
        ShardCall call = (lease, s, plan) -> {
          Statement st = lease.statement();
          ShardexStatement.configure(owner, lease, st);
          st.execute(plan.sqlFor(part, s).text());
          return st;
        };
        outcomes.add(conn.run(a.template(), a.literals(), part, call, false, owner, MergeSource.literals(a.text(), a.literals())));
      }
    } catch (SQLException | RuntimeException e) {
      // a later part failed: the earlier parts' result sets hold shard connections nobody will close
      for (Outcome o : outcomes) {
        try {
          dev.shardex.driver.merge.Closing.closeAll(java.util.Arrays.asList(o.resultSet(), o.generatedKeys()));
        } catch (SQLException closing) {
          e.addSuppressed(closing);
        }
      }
      throw e;
    }
    return MultiResults.sequence(outcomes);
  }

  private static void rollbackQuietly(Statement physical) {
    if (physical == null) {
      return;
    }
    try (Statement st = physical.getConnection().createStatement()) {
      st.execute("ROLLBACK");
    } catch (SQLException ignored) {
      // the connection is broken: the server rolls the transaction back when it closes
    }
  }
}
