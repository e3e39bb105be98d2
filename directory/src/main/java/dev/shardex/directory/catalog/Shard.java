package dev.shardex.directory.catalog;

/** One physical shard: a MySQL database reached by a JDBC URL that never holds a password. */
public record Shard(int id, String url, ShardStatus status, double weight, long keyCount) {}
