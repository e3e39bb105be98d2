package dev.shardex.driver.execute;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs one shard's share of a statement: takes a physical statement from the lease
 * ({@link ShardLease#prepare} or {@link ShardLease#statement}), binds and executes it, and returns
 * it. The lease owns the statement and gives it back when it is closed. The plan says what text
 * this shard gets ({@code plan.sqlFor(sql, shard)}): the statement, or a split INSERT's share of
 * rows, with sequence-filled ids added. The JDBC statements implement this themselves, so an
 * execution allocates no call object.
 */
@FunctionalInterface
public interface ShardCall {
  Statement run(ShardLease lease, int shard, dev.shardex.driver.route.RoutePlan plan) throws SQLException;
}
