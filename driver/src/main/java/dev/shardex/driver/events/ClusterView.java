package dev.shardex.driver.events;

import com.zaxxer.hikari.HikariPoolMXBean;
import dev.shardex.directory.DirectoryStats;
import java.util.Set;

/** A cluster (one directory client, its caches and shard pools) as telemetry sees it. */
public interface ClusterView {
  /** shardex.instance. */
  String instance();

  /** Unique in this JVM: the instance and the cluster's ordinal, {@code default-c1}. */
  String name();

  /** {@code mysql} or {@code mariadb}, read once from the directory server. */
  String dbSystem();

  /** The shards of the catalog. */
  Set<Integer> shardIds();

  /** {@code host:port} of a shard (no user, no password), or null for a shard not in the catalog. */
  String serverAddress(int shard);

  /** The shard's HikariCP pool name ({@code shardex-default-c1-shard-0}). */
  String poolName(int shard);

  /** The shard pool's figures, or null until the shard's first use. */
  HikariPoolMXBean pool(int shard);

  /** The directory client's figures now. */
  DirectoryStats directory();

}
