package dev.shardex.micrometer;

import com.zaxxer.hikari.HikariConfig;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.driver.events.ClusterView;
import dev.shardex.driver.events.ShardexListener;
import dev.shardex.driver.events.ShardexTelemetry;
import dev.shardex.driver.events.StatementView;
import dev.shardex.driver.events.TransactionOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shardex as Micrometer meters: install once, before or after the first connection.
 *
 * <pre>
 * AutoCloseable metrics = ShardexMetrics.install(registry); // Spring Boot: done for you
 * </pre>
 *
 * <p>Every meter is resolved once per cluster (and per shard, SHX id or error code the first time
 * it is seen) and then only recorded: a one-shard statement costs one timer record and, for its
 * shard call (the driver times it), two adds here and three in the shard pool's tracker, all to
 * one stretch of memory per shard ({@link ShardCounters}); it allocates nothing ({@link ClusterMeters} says why the call meter is a function timer
 * and when the fan-out summary is recorded). Meter names and tags are listed in {@link MeterNames}
 * and docs/observability.md.
 */
public final class ShardexMetrics implements ShardexListener {
  private final MeterRegistry registry;
  private final Map<ClusterView, ClusterMeters> clusters = new ConcurrentHashMap<>();
  /** The cluster seen last and its meters: one JVM nearly always has one cluster, so no lookup. */
  private volatile ClusterMeters last;

  public ShardexMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Registers meters for every Shardex cluster of this JVM; close the result to remove them. */
  public static AutoCloseable install(MeterRegistry registry) {
    return ShardexTelemetry.register(new ShardexMetrics(registry));
  }

  @Override
  public void clusterOpened(ClusterView cluster) {
    clusters.computeIfAbsent(cluster, c -> new ClusterMeters(registry, c));
  }

  private ClusterMeters meters(ClusterView cluster) {
    ClusterMeters m = last;
    if (m != null && m.view() == cluster) {
      return m;
    }
    m = clusters.get(cluster);
    last = m;
    return m;
  }

  @Override
  public void clusterClosed(ClusterView cluster) {
    last = null;
    ClusterMeters m = clusters.remove(cluster);
    if (m != null) {
      m.remove();
    }
  }

  @Override
  public void poolCreating(ClusterView cluster, int shard, HikariConfig config) {
    ClusterMeters m = clusters.get(cluster);
    config.setMetricsTrackerFactory(
        new ShardPoolMetrics(registry, cluster.name(), shard, m == null ? new ShardCounters() : m.counters(shard)));
  }

  @Override
  public void statementEnded(StatementView statement, Object started) {
    ClusterMeters m = meters(statement.cluster());
    if (m != null) {
      m.statement(statement);
    }
  }

  @Override
  public void shardCallFailed(ClusterView cluster, Object call, Shard shard, SQLException error) {
    ClusterMeters m = meters(cluster);
    if (m != null) {
      m.shardError(shard.id(), error);
    }
  }

  @Override
  public void shardCallEnded(ClusterView cluster, Object call, Shard shard, long nanos) {
    ClusterMeters m = meters(cluster);
    if (m != null && nanos >= 0) {
      m.shardCall(shard.id(), nanos);
    }
  }

  @Override
  public void transactionEnded(ClusterView cluster, String mode, int shards, TransactionOutcome outcome,
      SQLException error, long nanos) {
    ClusterMeters m = meters(cluster);
    if (m != null) {
      m.transaction(mode, shards, outcome, nanos);
    }
  }

  @Override
  public void recovered(ClusterView cluster, int committed, int rolledBack) {
    ClusterMeters m = meters(cluster);
    if (m != null) {
      m.recovered(committed, rolledBack);
    }
  }
}
