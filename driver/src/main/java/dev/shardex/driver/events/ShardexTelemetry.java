package dev.shardex.driver.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The listeners of every cluster in this JVM, registered before or after the clusters open (a
 * JDBC driver opened by URL has no object to hand them to; OpenTelemetry's JDBC driver is set up
 * the same way). A listener hears {@code clusterOpened} for every open cluster, then their events;
 * closing its registration stops them. Clusters with {@code shardex.telemetry=none} tell no one.
 */
public final class ShardexTelemetry {
  private static final List<ShardexListener> LISTENERS = new ArrayList<>();
  private static final Set<ClusterEvents> CLUSTERS = ConcurrentHashMap.newKeySet();

  private ShardexTelemetry() {}

  /** Adds a listener to every cluster, open and to come; close the result to remove it. */
  public static AutoCloseable register(ShardexListener listener) {
    synchronized (LISTENERS) {
      LISTENERS.add(listener);
      for (ClusterEvents c : CLUSTERS) {
        listener.clusterOpened(c.cluster());
      }
      refreshAll();
    }
    return () -> unregister(listener);
  }

  private static void unregister(ShardexListener listener) {
    synchronized (LISTENERS) {
      if (LISTENERS.remove(listener)) {
        refreshAll();
        for (ClusterEvents c : CLUSTERS) {
          listener.clusterClosed(c.cluster());
        }
      }
    }
  }

  static void opened(ClusterEvents cluster) {
    synchronized (LISTENERS) {
      CLUSTERS.add(cluster);
      cluster.refresh(LISTENERS.toArray(new ShardexListener[0]));
      for (ShardexListener l : cluster.own()) {
        l.clusterOpened(cluster.cluster());
      }
      for (ShardexListener l : LISTENERS) {
        l.clusterOpened(cluster.cluster());
      }
    }
  }

  static void closed(ClusterEvents cluster) {
    synchronized (LISTENERS) {
      if (CLUSTERS.remove(cluster)) {
        for (ShardexListener l : LISTENERS) {
          l.clusterClosed(cluster.cluster());
        }
        for (ShardexListener l : cluster.own()) {
          l.clusterClosed(cluster.cluster());
        }
      }
    }
  }

  private static void refreshAll() {
    ShardexListener[] now = LISTENERS.toArray(new ShardexListener[0]);
    for (ClusterEvents c : CLUSTERS) {
      c.refresh(now);
    }
  }
}
