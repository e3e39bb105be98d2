package dev.shardex.driver.execute;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Creates and executes the physical statement on one shard's connection; returns it, executed. */
@FunctionalInterface
public interface ShardCall {
  Statement run(Connection connection, int shard) throws SQLException;
}
