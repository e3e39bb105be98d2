package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.merge.Closing;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The results of multi-statement text ({@code a; b; c}), walked with getMoreResults as with
 * Connector/J: the outcomes of one physical statement that ran the whole text in one round trip
 * (all parts on one shard: Facebook's "non-stored procedure", {@link dev.shardex.driver.execute.OneTrip}),
 * or those of the parts run one by one.
 */
abstract class MultiResults implements AutoCloseable {
  @Override
  public abstract void close() throws SQLException;

  abstract Outcome current();

  /** Moves to the next result, closing the current result set; false when there is none. */
  abstract boolean next() throws SQLException;

  /** The outcomes, in order; {@code closedAtEnd}: what a text run in one round trip holds until they are walked. */
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
