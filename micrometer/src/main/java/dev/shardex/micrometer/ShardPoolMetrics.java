package dev.shardex.micrometer;

import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.PoolStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * A shard pool's HikariCP figures under HikariCP's own meter names ({@code hikaricp.connections.*},
 * as its MicrometerMetricsTracker registers them), tagged with the shard and cluster as well as the
 * pool, so a dashboard can group the shard pools of one cluster. Closing the pool removes them.
 *
 * <p>HikariCP tells its tracker the acquire and usage time of every borrow, that is of every
 * one-shard statement. HikariCP's own tracker records them in Micrometer timers (a decaying
 * maximum and two adders each, plus histograms when configured); these are function timers over
 * the shard's {@link ShardCounters}, shared with its shard call meter and read when the registry
 * is scraped: the same {@code _count} and {@code _sum}, no {@code _max}. Connection creation,
 * rare, stays a full timer.
 */
final class ShardPoolMetrics implements MetricsTrackerFactory {
  private final MeterRegistry registry;
  private final String cluster;
  private final int shard;
  private final ShardCounters counters;

  ShardPoolMetrics(MeterRegistry registry, String cluster, int shard, ShardCounters counters) {
    this.registry = registry;
    this.cluster = cluster;
    this.shard = shard;
    this.counters = counters;
  }

  @Override
  public IMetricsTracker create(String poolName, PoolStats stats) {
    return new Tracker(Tags.of("pool", poolName, "cluster", cluster, "shard", Integer.toString(shard)), stats);
  }

  private final class Tracker implements IMetricsTracker {
    private final List<Meter> meters = new ArrayList<>();
    private final Timer creation;
    private final Counter timeouts;

    Tracker(Tags tags, PoolStats stats) {
      timer("hikaricp.connections.acquire", "Connection acquire time", tags, ShardCounters.ACQUIRES, TimeUnit.NANOSECONDS);
      timer("hikaricp.connections.usage", "Connection usage time", tags, ShardCounters.USAGES, TimeUnit.MILLISECONDS);
      creation = keep(Timer.builder("hikaricp.connections.creation").description("Connection creation time").tags(tags)
          .register(registry));
      timeouts = keep(Counter.builder("hikaricp.connections.timeout").description("Connection timeout total count")
          .tags(tags).register(registry));
      gauge("hikaricp.connections", "Total connections", tags, stats, PoolStats::getTotalConnections);
      gauge("hikaricp.connections.idle", "Idle connections", tags, stats, PoolStats::getIdleConnections);
      gauge("hikaricp.connections.active", "Active connections", tags, stats, PoolStats::getActiveConnections);
      gauge("hikaricp.connections.pending", "Pending threads", tags, stats, PoolStats::getPendingThreads);
      gauge("hikaricp.connections.max", "Max connections", tags, stats, PoolStats::getMaxConnections);
      gauge("hikaricp.connections.min", "Min connections", tags, stats, PoolStats::getMinConnections);
    }

    private void gauge(String name, String description, Tags tags, PoolStats stats, ToDoubleFunction<PoolStats> f) {
      keep(Gauge.builder(name, stats, f).description(description).tags(tags).register(registry));
    }

    private <M extends Meter> M keep(M meter) {
      meters.add(meter);
      return meter;
    }

    /** A function timer over one of the shard's counters, in the unit HikariCP reports it in. */
    private void timer(String name, String description, Tags tags, int what, TimeUnit unit) {
      keep(FunctionTimer.builder(name, counters, c -> c.count(what), c -> c.total(what), unit).description(description)
          .tags(tags).register(registry));
    }

    @Override
    public void recordConnectionAcquiredNanos(long nanos) {
      counters.add(ShardCounters.ACQUIRES, nanos);
    }

    @Override
    public void recordConnectionUsageMillis(long millis) {
      counters.add(ShardCounters.USAGES, millis);
    }

    @Override
    public void recordConnectionCreatedMillis(long millis) {
      creation.record(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void recordConnectionTimeout() {
      timeouts.increment();
    }

    @Override
    public void close() {
      meters.forEach(registry::remove);
    }
  }
}
