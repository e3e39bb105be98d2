package dev.shardex.driver.execute;

import java.util.concurrent.atomic.LongAdder;

/** Counters a driver instance keeps about itself; cheap enough for the hot path. */
public final class Metrics {
  private static final Metrics NONE = new Metrics(dev.shardex.driver.events.ClusterEvents.OFF);
  private final LongAdder roundTrips = new LongAdder();
  private final dev.shardex.driver.events.ClusterEvents events;
  private final Metrics parent;

  public Metrics(dev.shardex.driver.events.ClusterEvents events) {
    this(events, null);
  }

  private Metrics(dev.shardex.driver.events.ClusterEvents events, Metrics parent) {
    this.events = events;
    this.parent = parent;
  }

  /**
   * Counters of their own (one statement's, EXPLAIN ANALYZE ROUTE) that also count in {@code parent},
   * with the parent's telemetry listeners.
   */
  public static Metrics within(Metrics parent) {
    return new Metrics(parent.events, parent);
  }

  /** The counters these also count in (the cluster's), or null. */
  public Metrics parent() {
    return parent;
  }

  /** The cluster's telemetry listeners (statement and shard-call events). */
  public dev.shardex.driver.events.ClusterEvents events() {
    return events;
  }

  /** One statement (or multi-statement text, or batch) sent to a shard: one network round trip. */
  public void roundTrip() {
    roundTrips.increment();
    if (parent != null) {
      parent.roundTrip();
    }
  }

  public long roundTrips() {
    return roundTrips.sum();
  }

  public static Metrics none() {
    return NONE;
  }
}
