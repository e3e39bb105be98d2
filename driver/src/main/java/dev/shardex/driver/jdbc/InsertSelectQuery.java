package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.plan.InsertRows;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.sql.InsertSelectCut;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * An INSERT ... SELECT the router could not run whole on one shard (its {@code JOIN} plan): its rows
 * are read first ({@link InsertRows}), then inserted by key, atomically. Inside the connection's
 * transaction the writes are its own, bracketed by a savepoint, so a failing statement leaves the
 * transaction as it was (as one server's statement rollback does); in autocommit they run in a
 * transaction of Shardex's own ({@code shardex.transactions}: atomic across shards by default), as
 * an upsert through a lookup does. LAST_INSERT_ID() is the first id the statement generated, as
 * MySQL defines it for a multi-row INSERT; the update count is the shards' counts added up.
 */
final class InsertSelectQuery {
  private static final String SAVEPOINT = "__shx_insert_select";

  private final Cluster cluster;
  private final ShardSession session;
  private final JoinQuery joins;

  InsertSelectQuery(Cluster cluster, ShardSession session, JoinQuery joins) {
    this.cluster = cluster;
    this.session = session;
    this.joins = joins;
  }

  /** The statement's operator: its cut (cached per text and catalog), or SHX1208 with the reason. */
  InsertRows plan(RouteTemplate t, String text) throws SQLException {
    long cap = cluster.config().maxMergeRows();
    Object cut = cluster.templates().crossShard(joins.version() + "|insert-select|" + cap + "|" + text, () -> {
      try {
        return InsertSelectCut.of(text, cap, joins.catalog());
      } catch (InsertSelectCut.Refused e) {
        return e.getMessage();
      } catch (RuntimeException e) {
        return "its SELECT could not be cut from it (" + e + ")";
      }
    });
    if (cut instanceof InsertSelectCut.Plan plan) {
      return new InsertRows(plan, cap);
    }
    throw ShardexError.INSERT_SELECT.exception(t.targetTable().name(), String.valueOf(cut),
        "read the rows, then insert them with ON DUPLICATE KEY UPDATE reading VALUES(col) only");
  }

  Outcome run(RouteTemplate t, String text, Object[] values, Statement owner) throws SQLException {
    InsertRows insert = plan(t, text);
    long[] firstId = {0};
    Runner run = new Runner(session, cluster.fanout(), owner, values, cluster.config().maxMergeRows(),
        tracked(joins.steps(owner), firstId), false);
    List<Cell[]> rows = insert.read(run); // every row before any write: over the cap nothing is written
    long count = session.state().autoCommit() ? ownTransaction(insert, run, rows) : inTransaction(insert, run, rows);
    return Outcome.count(count, null, firstId[0]);
  }

  private long ownTransaction(InsertRows insert, Runner run, List<Cell[]> rows) throws SQLException {
    session.setAutoCommit(false);
    try {
      long count = insert.write(run, rows);
      session.commit();
      return count;
    } catch (SQLException | RuntimeException e) {
      undo(e, () -> session.rollback());
      throw ownError(e);
    } finally {
      session.setAutoCommit(true);
    }
  }

  private long inTransaction(InsertRows insert, Runner run, List<Cell[]> rows) throws SQLException {
    session.savepoint(SAVEPOINT);
    long count;
    try {
      count = insert.write(run, rows);
    } catch (SQLException | RuntimeException e) {
      undo(e, () -> {
        session.rollbackTo(SAVEPOINT);
        session.release(SAVEPOINT);
      });
      throw ownError(e);
    }
    session.release(SAVEPOINT);
    return count;
  }

  private interface Undo {
    void run() throws SQLException;
  }

  /** Undoes the writes after a failure; the statement's own error is the one reported. */
  private static void undo(Exception failure, Undo undo) {
    try {
      undo.run();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * A write that failed on some shards after others applied it (SHX1505) is undone everywhere here,
   * so its error is the failing shard's own, as one server's statement rollback reports it.
   */
  private static SQLException ownError(Exception e) {
    if (e instanceof RuntimeException r) {
      throw r;
    }
    SQLException s = (SQLException) e;
    return ShardexError.WRITE_PARTIAL.is(s) && s.getCause() instanceof SQLException shard ? shard : s;
  }

  /** The steps, noting the first LAST_INSERT_ID() a write of the statement set. */
  private Runner.Steps tracked(Runner.Steps steps, long[] firstId) {
    return new Runner.Steps() {
      @Override
      public Outcome run(String sql, Object[] values, Runner runner) throws SQLException {
        long before = session.values().lastInsertIdOrZero();
        Outcome out = steps.run(sql, values, runner);
        long after = session.values().lastInsertIdOrZero();
        if (firstId[0] == 0 && after != before) {
          firstId[0] = after;
        }
        return out;
      }

      @Override
      public Outcome counted(String sql, Object[] values, Runner runner) throws SQLException {
        return steps.counted(sql, values, runner); // a read: it sets no LAST_INSERT_ID()
      }

      @Override
      public Outcome direct(String sql, Object[] values) throws SQLException {
        return steps.direct(sql, values);
      }
    };
  }
}
