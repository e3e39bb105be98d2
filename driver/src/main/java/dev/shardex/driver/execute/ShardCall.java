package dev.shardex.driver.execute;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Creates and executes the physical statement on one shard's connection; returns it, executed.
 * The plan says what text this shard gets ({@code plan.sqlFor(sql, shard)}): the statement, or a
 * split INSERT's share of rows, with sequence-filled ids added.
 */
@FunctionalInterface
public interface ShardCall {
  Statement run(Connection connection, int shard, dev.shardex.driver.route.RoutePlan plan) throws SQLException;
}
