package dev.shardex.driver.jmx;

import java.util.Map;

/**
 * One cluster's figures, as {@code dev.shardex:type=Cluster,instance=I,name=I-cN}. Counters count
 * from the cluster's start; maps hold only keys seen so far. Percentiles are not here: they come
 * from shardex-micrometer or shardex-opentelemetry. Each shard pool registers its own HikariCP bean,
 * {@code com.zaxxer.hikari:type=Pool (shardex-I-cN-shard-S)}.
 */
public interface ShardexClusterMXBean {
  String getInstance();

  /** The cluster's name in the JVM ({@code default-c1}): pool names carry it. */
  String getName();

  /** Logical statements by {@code route.outcome}: {@code one_shard.ok}, {@code merged.refused}, {@code all.error}. */
  Map<String, Long> getStatements();

  /** Nanoseconds spent in logical statements, by route. */
  Map<String, Long> getStatementNanos();

  /** Refused statements by SHX id. */
  Map<String, Long> getRefusals();

  /** Failed statements by error type (SHX id or the shard's vendor code). */
  Map<String, Long> getErrors();

  /** Shard calls made by logical statements: divided by the statements, the mean fan-out. */
  long getFanoutShardCalls();

  /** Shard calls by shard id. */
  Map<String, Long> getShardCalls();

  /** Shard calls that failed by shard id, not counting the client's own errors (duplicate key, syntax). */
  Map<String, Long> getShardErrors();

  /** Transactions that ran on a shard, by {@code mode.scope.outcome}: {@code atomic.multi_shard.committed}. */
  Map<String, Long> getTransactions();

  /** Prepared branches recovery committed. */
  long getRecoveredCommitted();

  /** Prepared branches recovery rolled back. */
  long getRecoveredRolledBack();

  long getKeyCacheHits();

  long getKeyCacheMisses();

  long getKeyCacheSize();

  /** Milliseconds since the last successful directory poll began; writes stop at shardex.leaseMs. */
  long getLeaseAgeMillis();

  /** The last change-log entry applied (compare with the directory's newest for the poll lag in changes). */
  long getAppliedChange();

  /** Keys a move has under way. */
  int getKeysMoving();
}
