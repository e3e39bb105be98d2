package dev.shardex.driver.execute;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Creates and executes the physical statement on one shard's connection; returns it, executed.
 * {@code rows} is null for the whole statement, or the rows of a split INSERT this shard gets.
 */
@FunctionalInterface
public interface ShardCall {
  Statement run(Connection connection, int shard, int[] rows) throws SQLException;
}
