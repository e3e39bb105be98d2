package dev.shardex.driver.execute;

import dev.shardex.driver.merge.Closing;
import dev.shardex.driver.merge.ShardResultSet;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * execute stage for a multi-statement text whose parts all run on one shard: the whole text in
 * one round trip (allowMultiQueries is on for shard connections), Facebook's "non-stored
 * procedure". Its results are all read at once (Connector/J has them in memory), so the session
 * values are those the whole text leaves, as on one server; the physical statement and the lease
 * stay open until the caller has walked them ({@link Ran#held}).
 *
 * <p>A text that is a whole transaction of its own ({@code START TRANSACTION; ...; COMMIT}) is
 * rolled back on the shard when a part fails, before the connection goes back to its pool.
 */
public final class OneTrip {
  private OneTrip() {}

  /** What the caller does around the round trip. */
  public interface Calls {
    /** Readies the physical statement for the caller (its options; cancel() reaches it). */
    void configure(Statement physical) throws SQLException;

    /** The session values after part {@code part}'s result, in order. */
    void after(int part, Outcome out) throws SQLException;

    /** The text failed at some part: the parts before it ran, and their results are lost with the error. */
    void failed();
  }

  /** The parts' outcomes, in order, and what holds them (closed once they are walked). */
  public record Ran(List<Outcome> outcomes, AutoCloseable held) {}

  /** Runs {@code sql} on {@code shard}; {@code wrapped}: the text begins and commits its own transaction. */
  public static Ran run(int shard, boolean write, boolean wrapped, String sql, ShardAccess access, Statement owner,
      Calls calls) throws SQLException {
    access.checkScope(List.of(shard), write);
    ShardLease lease = access.acquire(shard, write, true);
    Statement physical = null;
    try {
      physical = lease.connection().createStatement();
      calls.configure(physical);
      access.metrics().roundTrip();
      physical.execute(sql);
      Statement ran = physical;
      return new Ran(results(physical, owner, calls), () -> Closing.closeAll(Arrays.asList(ran, lease)));
    } catch (SQLException e) {
      calls.failed();
      if (wrapped) {
        rollbackQuietly(physical);
      }
      Closing.closeAll(Arrays.asList(physical, lease));
      throw lease.translate(e);
    }
  }

  private static List<Outcome> results(Statement physical, Statement owner, Calls calls) throws SQLException {
    List<Outcome> outcomes = new ArrayList<>();
    for (int part = 0; ; part++) {
      ResultSet rs = physical.getResultSet();
      long count = rs == null ? physical.getLargeUpdateCount() : -1;
      if (rs == null && count == -1) {
        return outcomes;
      }
      long id = physical.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).getResultSetInternal().getUpdateID();
      Outcome out = rs != null ? new Outcome(new ShardResultSet(rs, owner, () -> { }), -1, null) : Outcome.count(count, null, id);
      calls.after(part, out);
      outcomes.add(out);
      physical.getMoreResults(Statement.KEEP_CURRENT_RESULT);
    }
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
