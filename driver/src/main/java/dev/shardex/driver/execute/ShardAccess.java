package dev.shardex.driver.execute;

import java.sql.SQLException;
import java.util.List;

/** How the executor gets physical connections: from a logical connection's {@link ShardSession}. */
public interface ShardAccess {
  /** A connection to the shard; {@code mayPin=false} for DDL, which MySQL commits on its own. */
  ShardLease acquire(int shard, boolean write, boolean mayPin) throws SQLException;

  /** A read's connection to the shard's primary, never a replica (a replica's read that must run again). */
  ShardLease primary(int shard) throws SQLException;

  /** Refuses, before anything runs, a plan the transaction mode does not allow. */
  void checkScope(List<Integer> shards, boolean write) throws SQLException;

  /** Where round trips are counted. */
  Metrics metrics();
}
