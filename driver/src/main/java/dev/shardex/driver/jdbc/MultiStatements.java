package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.OneTrip;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.Analysis;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans multi-statement text for a logical connection: one round trip ({@link Runner#text}) when
 * every part routes to the same single shard, else part by part, each through the pipeline.
 */
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
      if (a.template().readsSession()) {
        continue; // its values are those the parts before it leave: decided when it runs
      }
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
        conn.cluster().templates().merge(a.text(), dev.shardex.driver.route.Router.join(plan.shards()),
            dev.shardex.driver.route.Router.windows(a.template(), conn.cluster().directory()));
      }
    }
  }

  /**
   * Multi-statement text. When every part routes to the same single shard and none is a session,
   * transaction or DDL statement, the whole text goes in one round trip (allowMultiQueries is on
   * for shard connections: {@link dev.shardex.driver.execute.OneTrip}); otherwise each part is
   * routed and run on its own, in order.
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
    List<Analysis> analyses = new ArrayList<>();
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
          default -> oneTrip = answersAsLogical(a.template(), wrapped || !analyses.isEmpty());
        }
        if (!oneTrip || dev.shardex.driver.route.LookupRoute.involves(a.template(), conn.cluster().directory())) {
          oneTrip = false; // a part on a table with lookups runs on its own: a write keeps them, a read is rechecked
          break;
        }
        RoutePlan plan = conn.planFor(a.template(), a.literals());
        plans.add(plan);
        analyses.add(a);
        write |= plan.write();
        if (plan.fanout() != Fanout.ONE || plan.fill() != null || (shard != null && shard != plan.single())) {
          oneTrip = false;
          break;
        }
        shard = plan.single();
      }
      if (oneTrip) {
        int first = wrapped ? 1 : 0;
        OneTrip.Ran ran = Runner.text(shard, write, wrapped, sql, conn.session(), owner, new OneTrip.Calls() {
          @Override
          public void configure(Statement physical) throws SQLException {
            ShardexStatement.configure(owner, physical);
          }

          @Override
          public void after(int part, Outcome out) throws SQLException {
            track(part - first, out, analyses, plans, parts.get(part));
          }

          @Override
          public void failed() {
            partFailed(analyses, sql);
          }
        });
        return MultiResults.sequence(ran.outcomes(), ran.held());
      }
    } finally {
      plans.forEach(p -> conn.session().settle(p.guards()));
    }
    List<Outcome> outcomes = new ArrayList<>();
    try {
      for (String part : parts) {
        Analysis a = conn.cluster().templates().plain(part);
        // a part that reads LAST_INSERT_ID() and the like gets the values the parts before it left
        outcomes.add(conn.runText(a.template().readsSession() ? conn.withSessionValues(part) : part, false, owner));
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

  /**
   * A text sent in one round trip failed at some part: the server ran the parts before it, but
   * Connector/J drops their results, so an id one of them generated is not known.
   */
  private void partFailed(List<Analysis> analyses, String sql) {
    conn.session().values().failed();
    for (Analysis a : analyses) {
      if (a.template().type() == dev.shardex.driver.sql.StatementType.INSERT
          || a.template().type() == dev.shardex.driver.sql.StatementType.REPLACE || a.template().functions() != 0) {
        conn.session().values().generatedUnseen(sql, "a text run in one round trip that failed part-way; the parts"
            + " before the failed one ran, and their results are lost with the error");
        return;
      }
    }
  }

  /**
   * Whether the shard session running the whole text answers the part's session functions as the
   * logical connection would: ROW_COUNT() after an earlier part of the text (every statement sets
   * it), LAST_INSERT_ID(expr) in a write (its OK packet carries the value). LAST_INSERT_ID() and
   * FOUND_ROWS() may still hold what the pooled session did before: such parts run one by one.
   */
  private static boolean answersAsLogical(dev.shardex.driver.sql.RouteTemplate t, boolean afterAnother) {
    int f = t.functions();
    return f == 0 || (f == dev.shardex.driver.sql.SessionFunctions.READS && afterAnother)
        || (f == dev.shardex.driver.sql.SessionFunctions.SETS_ID && t.type() != dev.shardex.driver.sql.StatementType.SELECT);
  }

  /** The session values after part i of a text run in one round trip (BEGIN and COMMIT around it count 0). */
  private void track(int i, Outcome out, List<Analysis> analyses, List<RoutePlan> plans, String part) throws SQLException {
    if (i < 0 || i >= analyses.size()) {
      conn.session().values().updated(out.updateCount());
      return;
    }
    Analysis a = analyses.get(i);
    ValueTracking.after(conn.session().values(), conn.cluster().schemas(), a.template(), plans.get(i), a.literals(), out,
        part, null);
  }
}
