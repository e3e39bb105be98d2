package dev.shardex.directory.lookup;

/**
 * A lookup index of a SHARDED table: the column's values map to the shard keys of the rows that
 * hold them ({@code v -> k}, never to a shard, so a move of a key leaves every entry valid). A
 * {@code unique} lookup holds one key per value, so it also makes the column unique across shards.
 */
public record Lookup(int id, String table, String column, boolean unique) {

  /** How the declaration reads: {@code lookup=id unique}. */
  public String describe() {
    return "lookup=" + column + (unique ? " unique" : "");
  }
}
