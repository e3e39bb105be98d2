package dev.shardex.driver.plan;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A node of a statement's plan: a Route that sends SQL to shards, or a step the client runs over its
 * inputs' rows (join, sort, fold, limit...). Operators are built per execution by the planner and
 * opened once, by the {@link Runner}: a node opens its inputs through the runner, never directly,
 * so the runner sees every step (EXPLAIN ANALYZE ROUTE's figures).
 */
public interface Operator {
  /** Runs this node (its inputs first, through {@code run}) and returns its rows. */
  ResultSet open(Runner run) throws SQLException;

  /** What this node does, for EXPLAIN ROUTE's {@code operator} column. */
  String describe();

  /** The round trips it costs by itself, for EXPLAIN ROUTE ("0": it runs on the client). */
  default String roundTrips() {
    return "0";
  }

  /** Its inputs, in the order they run. */
  default List<Operator> inputs() {
    return List.of();
  }

  /** For a node that sends SQL: one row per shard or step, {shard_id, sql_sent, merge}; else none. */
  default List<Object[]> sent(Object[] values) throws SQLException {
    return List.of();
  }
}
