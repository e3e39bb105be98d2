package dev.shardex.vocabulary;

/** A set of tables sharded by the same key; {@code placement} names the policy for new keys. */
public record KeySpace(String name, KeyType keyType, String placement) {
  public static final String DEFAULT = "default";
  public static final String LEAST_LOADED = "least_loaded";
}
