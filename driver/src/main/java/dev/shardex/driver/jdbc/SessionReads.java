package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.SessionValues;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardLease;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.sql.SessionFunctions;
import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.vocabulary.ShardexError;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a SELECT with {@code SQL_CALC_FOUND_ROWS} or {@code LAST_INSERT_ID(expr)} leaves in the
 * shard session that ran it, read on the same physical connection right after it (before the
 * connection goes back): each shard's FOUND_ROWS(), summed, and the id the expression set. So that
 * an expression evaluated for no row leaves the logical value as it was, the shard session gets
 * that value first. Only these statements pay the extra round trips.
 */
final class SessionReads {
  private final boolean calc;
  private final boolean setsId;
  private final SessionValues values;
  private final AtomicLong found = new AtomicLong();
  private volatile long id;

  private SessionReads(int functions, SessionValues values) {
    this.calc = (functions & SessionFunctions.CALC_FOUND_ROWS) != 0;
    this.setsId = (functions & SessionFunctions.SETS_ID) != 0;
    this.values = values;
  }

  /** The reads a SELECT needs, or null (the statement sets neither value). */
  static SessionReads of(int functions, RoutePlan plan, String sql, SessionValues values) throws SQLException {
    if ((functions & (SessionFunctions.CALC_FOUND_ROWS | SessionFunctions.SETS_ID)) == 0) {
      return null;
    }
    if ((functions & SessionFunctions.SETS_ID) != 0 && plan.shards().size() > 1) {
      throw ShardexError.UNSUPPORTED.exception("LAST_INSERT_ID(expr) in '" + SqlLexer.abbreviate(sql) + "', which runs on shards "
          + plan.shards() + " (which shard evaluates it last is not defined)",
          "route the statement to one shard by its key, or set the id with SELECT LAST_INSERT_ID(expr) on its own");
    }
    return new SessionReads(functions, values);
  }

  boolean calc() {
    return calc;
  }

  long found() {
    return found.get();
  }

  boolean setsId() {
    return setsId;
  }

  long id() {
    return id;
  }

  /** The call with the reads around it. */
  ShardCall wrap(ShardCall call) {
    return (lease, shard, plan) -> {
      before(lease);
      Statement st = call.run(lease, shard, plan);
      after(lease);
      return st;
    };
  }

  void before(ShardLease lease) throws SQLException {
    if (setsId) {
      try (Statement s = lease.connection().createStatement()) {
        s.execute("DO LAST_INSERT_ID(" + Long.toUnsignedString(values.lastInsertIdOrZero()) + ")");
      }
    }
  }

  void after(ShardLease lease) throws SQLException {
    try (Statement s = lease.connection().createStatement(); ResultSet rs = s.executeQuery("SELECT FOUND_ROWS(), LAST_INSERT_ID()")) {
      rs.next();
      found.addAndGet(rs.getLong(1));
      if (setsId) {
        id = new BigInteger(rs.getString(2)).longValue(); // BIGINT UNSIGNED, kept as its 64 bits
      }
    }
  }
}
