package dev.shardex.driver.execute;

import java.util.concurrent.atomic.LongAdder;

/** Counters a driver instance keeps about itself; cheap enough for the hot path. */
public final class Metrics {
  private static final Metrics NONE = new Metrics(dev.shardex.driver.events.ClusterEvents.OFF);
  private final LongAdder roundTrips = new LongAdder();
  private final dev.shardex.driver.events.ClusterEvents events;

  public Metrics(dev.shardex.driver.events.ClusterEvents events) {
    this.events = events;
  }

  /** The cluster's telemetry listeners (statement and shard-call events). */
  public dev.shardex.driver.events.ClusterEvents events() {
    return events;
  }

  /** One statement (or multi-statement text, or batch) sent to a shard: one network round trip. */
  public void roundTrip() {
    roundTrips.increment();
  }

  public long roundTrips() {
    return roundTrips.sum();
  }

  public static Metrics none() {
    return NONE;
  }
}
