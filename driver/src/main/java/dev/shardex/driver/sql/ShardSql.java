package dev.shardex.driver.sql;

/**
 * The text one shard receives and which of the statement's parameters (0-based, in order) it
 * binds; {@code params == null} means all of them, unchanged.
 */
public record ShardSql(String text, int[] params) {
  public static ShardSql whole(String text) {
    return new ShardSql(text, null);
  }
}
