package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.merge.Closing;
import dev.shardex.driver.merge.ShardResultSet;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The results of multi-statement text ({@code a; b; c}), walked with getMoreResults as with
 * Connector/J. Either one physical statement that ran the whole text in one round trip (all parts
 * on one shard: Facebook's "non-stored procedure"), or the outcomes of the parts run one by one.
 */
abstract class MultiResults implements AutoCloseable {
  @Override
  public abstract void close() throws SQLException;

  abstract Outcome current();

  /** Moves to the next result, closing the current result set; false when there is none. */
  abstract boolean next() throws SQLException;

  /** What follows each result of a text run in one round trip: the session values it leaves (part index, outcome). */
  @FunctionalInterface
  interface Tracker {
    void after(int part, Outcome out) throws SQLException;
  }

  /**
   * One round trip: the shard's own statement produced the results, all read now (Connector/J has
   * them in memory) so the session values are those the whole text leaves, as on one server.
   */
  static MultiResults physical(Statement physical, ShardLease lease, Statement owner, Tracker tracker)
      throws SQLException {
    List<Outcome> outcomes = new java.util.ArrayList<>();
    for (int part = 0; ; part++) {
      ResultSet rs = physical.getResultSet();
      long count = rs == null ? physical.getLargeUpdateCount() : -1;
      if (rs == null && count == -1) {
        break;
      }
      long id = physical.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).getResultSetInternal().getUpdateID();
      Outcome out = rs != null ? new Outcome(new ShardResultSet(rs, owner, () -> { }), -1, null) : Outcome.count(count, null, id);
      tracker.after(part, out);
      outcomes.add(out);
      physical.getMoreResults(Statement.KEEP_CURRENT_RESULT);
    }
    return sequence(outcomes, physical, lease);
  }

  /** Part by part: the outcomes, in order. */
  static MultiResults sequence(List<Outcome> outcomes, AutoCloseable... closedAtEnd) {
    Deque<Outcome> queue = new ArrayDeque<>(outcomes);
    return new MultiResults() {
      private Outcome current = queue.poll();

      @Override
      Outcome current() {
        return current;
      }

      @Override
      boolean next() throws SQLException {
        if (current != null && current.resultSet() != null) {
          current.resultSet().close();
        }
        current = queue.poll();
        if (current == null) {
          Closing.closeAll(List.of(closedAtEnd)); // the round trip's statement and connection, once walked
        }
        return current != null;
      }

      @Override
      public void close() throws SQLException {
        while (next()) {
          // closes every remaining result set, then what the round trip holds
        }
      }
    };
  }
}
