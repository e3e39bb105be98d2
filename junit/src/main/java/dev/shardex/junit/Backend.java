package dev.shardex.junit;

import java.util.Locale;

/** What runs a {@link ShardedCluster}'s shards and its directory. */
public enum Backend {
  /** Embedded MariaDB servers (the shardex-sandbox module): no Docker, no install, Linux x86-64. */
  SANDBOX,
  /** One MySQL container per shard plus one for the directory, through Testcontainers: needs Docker. */
  CONTAINERS;

  /** The system property that overrides every class's {@link ShardedCluster#backend()}. */
  public static final String PROPERTY = "shardex.test.backend";

  static Backend chosen(Backend declared) {
    String override = System.getProperty(PROPERTY);
    if (override == null || override.isBlank()) {
      return declared;
    }
    try {
      return valueOf(override.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + override + " is not a backend: use sandbox or containers", e);
    }
  }
}
