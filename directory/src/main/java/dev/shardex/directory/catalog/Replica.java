package dev.shardex.directory.catalog;

/**
 * One read replica of a shard, as the directory's replica catalog declares it: a MySQL server fed by
 * the shard's own replication, reached by a JDBC URL that never holds a password (its credentials are
 * the shard's). {@code replicaId} is 1..n within its shard and never reused while the row exists.
 */
public record Replica(int shardId, int replicaId, String url, double weight, ReplicaStatus status) {}
