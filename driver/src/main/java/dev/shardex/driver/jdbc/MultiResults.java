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

  /** One round trip: the shard's own statement produces the results. */
  static MultiResults physical(Statement physical, ShardLease lease, Statement owner) throws SQLException {
    return new MultiResults() {
      private Outcome current = read();
      private boolean done;

      private Outcome read() throws SQLException {
        ResultSet rs = physical.getResultSet();
        if (rs != null) {
          return new Outcome(new ShardResultSet(rs, owner, () -> { }), -1, null);
        }
        return Outcome.count(physical.getLargeUpdateCount(), null);
      }

      @Override
      Outcome current() {
        return current;
      }

      @Override
      boolean next() throws SQLException {
        if (done) {
          return false;
        }
        boolean query = physical.getMoreResults();
        current = read();
        if (!query && current.updateCount() == -1) {
          close();
          return false;
        }
        return true;
      }

      @Override
      public void close() throws SQLException {
        if (!done) {
          done = true;
          Closing.closeAll(List.of(physical, lease));
        }
      }
    };
  }

  /** Part by part: the outcomes, in order. */
  static MultiResults sequence(List<Outcome> outcomes) {
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
        return current != null;
      }

      @Override
      public void close() throws SQLException {
        while (next()) {
          // closes every remaining result set
        }
      }
    };
  }
}
