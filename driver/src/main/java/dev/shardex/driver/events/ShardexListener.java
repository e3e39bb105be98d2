package dev.shardex.driver.events;

import com.zaxxer.hikari.HikariConfig;
import dev.shardex.directory.catalog.Shard;
import java.sql.SQLException;
import java.util.concurrent.Executor;

/**
 * What the driver tells telemetry, with no dependency: the JMX beans, shardex-micrometer and
 * shardex-opentelemetry are all listeners. Register one with {@link ShardexTelemetry#register}.
 *
 * <p>Cost: with no listener (and {@code shardex.telemetry=none}) the driver only checks a field per
 * statement and shard call. With listeners it allocates nothing of its own per statement: the
 * {@link StatementView} is one object per logical connection, reused, so a listener must not keep
 * it past {@link #statementEnded}. What a listener returns from a {@code ...Started} call (a span,
 * a start time) is handed back at the matching end; return null when nothing is needed.
 *
 * <p>Threads: a statement's events come on the thread that runs it; a shard call's start may come
 * on a fan-out thread, and its end comes when the shard's connection is given back, which for a
 * query is when its rows were read (the result set's close), so possibly after the statement ended.
 * A one-shard statement's call that ended inside the statement (a write's), for which no listener
 * kept a state, is told at the statement's end, just before it, and lasted until then: the two
 * ends are one clock read.
 */
public interface ShardexListener {
  /** A cluster opened (or was already open when this listener registered). */
  default void clusterOpened(ClusterView cluster) {}

  default void clusterClosed(ClusterView cluster) {}

  /** A shard's pool is about to be created: a listener may set its MetricsTrackerFactory. */
  default void poolCreating(ClusterView cluster, int shard, HikariConfig config) {}

  /** The executor that runs a statement's shards in parallel, for listeners that carry a context into it. */
  default Executor fanout(Executor pool) {
    return pool;
  }

  /** A logical statement begins (route and shards are not known yet). */
  default Object statementStarted(StatementView statement) {
    return null;
  }

  /** It ended: {@link StatementView#outcome()} says how, {@link StatementView#elapsedNanos()} how long it took. */
  default void statementEnded(StatementView statement, Object started) {}

  /**
   * A shard call begins: a physical connection of {@code shard} was taken for a statement.
   * {@code statement} is the running logical statement's view and {@code started} what this
   * listener returned for it, both null for a call outside one (metadata, lookups on commit).
   */
  default Object shardCallStarted(ClusterView cluster, StatementView statement, Object started, Shard shard) {
    return null;
  }

  /**
   * The call failed with this error (translated: SHX1401 for an unreachable shard, else the
   * shard's own). {@code call} is null when no connection of the shard came (SHX1401, SHX1410,
   * SHX1412): then no start or end is told.
   */
  default void shardCallFailed(ClusterView cluster, Object call, Shard shard, SQLException error) {}

  /**
   * The call's connection was given back, {@code nanos} after it was taken (-1 when this
   * listener was registered while the call ran, or no listener {@link #timesShardCalls times calls}).
   * Timing calls costs the driver two clock reads per call, made only while some listener overrides
   * this method and times calls.
   */
  default void shardCallEnded(ClusterView cluster, Object call, Shard shard, long nanos) {}

  /**
   * Whether this listener uses {@link #shardCallEnded}'s {@code nanos}. One that only ends there
   * what it started (a span, which reads its own clock) returns false: unless another listener in
   * effect times calls, the driver then reads no clock for them and {@code nanos} is -1.
   */
  default boolean timesShardCalls() {
    return true;
  }

  /**
   * A transaction that ran on {@code shards} shards (1 or more) ended.
   *
   * @param mode shardex.transactions in effect: atomic, single, best_effort or xa
   * @param error the commit's error when the outcome is FAILED, else null
   */
  default void transactionEnded(ClusterView cluster, String mode, int shards, TransactionOutcome outcome,
      SQLException error, long nanos) {}

  /** A recovery pass finished prepared branches left by a crash: committed or rolled them back. */
  default void recovered(ClusterView cluster, int committed, int rolledBack) {}
}
