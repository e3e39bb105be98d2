package dev.shardex.directory.catalog;

/** Whether drivers may read from a replica at all (its lag decides the rest). */
public enum ReplicaStatus {
  ONLINE,
  OFFLINE
}
