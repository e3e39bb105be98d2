package dev.shardex.micrometer;

import java.util.List;

/** Every meter Shardex registers, with its tags (checked against the README by a test). */
public final class MeterNames {
  private MeterNames() {}

  /** Logical statements: tags cluster, operation (select, insert, ...), route, outcome. */
  public static final String STATEMENTS = "shardex.statements";
  /**
   * Shard calls per logical statement, where they vary (the routes that reach several shards, and a
   * statement of the others that did not make its route's own count): tags cluster, route.
   */
  public static final String FANOUT = "shardex.fanout.shards";
  /** Refused statements: tags cluster, error.type (the SHX id). */
  public static final String REFUSALS = "shardex.refusals";
  /** Failed statements: tags cluster, error.type (SHX id or vendor code). */
  public static final String ERRORS = "shardex.errors";
  /** Shard calls (a function timer: count, total), from taking the shard's connection to giving it back: tags cluster, shard. */
  public static final String SHARD_CALLS = "shardex.shard.calls";
  /** Shard calls that failed, not counting the client's own errors: tags cluster, shard, error.type. */
  public static final String SHARD_ERRORS = "shardex.shard.errors";
  /** Ends of transactions that ran on a shard: tags cluster, mode, scope (one_shard, multi_shard), outcome. */
  public static final String TRANSACTIONS = "shardex.transactions";
  /** Prepared branches recovery finished: tags cluster, action (commit, rollback). */
  public static final String RECOVERED = "shardex.xa.recovered";
  /** Seconds since the last successful directory poll began: tag cluster. */
  public static final String LEASE_AGE = "shardex.directory.lease.age";
  /** The last change-log entry applied: tag cluster. */
  public static final String APPLIED_CHANGE = "shardex.directory.applied.change";
  /** Keys a move has under way: tag cluster. */
  public static final String KEYS_MOVING = "shardex.directory.keys.moving";
  /** Key-cache lookups (Micrometer's cache meter): tags cache=shardex.keys, cluster, result (hit, miss). */
  public static final String CACHE_GETS = "cache.gets";
  /** Cached key placements: tags cache=shardex.keys, cluster. */
  public static final String CACHE_SIZE = "cache.size";

  /** HikariCP's meter names, per shard pool: tags pool, cluster, shard. */
  public static final List<String> POOL = List.of("hikaricp.connections.acquire", "hikaricp.connections.usage",
      "hikaricp.connections.creation", "hikaricp.connections.timeout", "hikaricp.connections",
      "hikaricp.connections.idle", "hikaricp.connections.active", "hikaricp.connections.pending",
      "hikaricp.connections.max", "hikaricp.connections.min");

  public static final List<String> ALL = List.of(STATEMENTS, FANOUT, REFUSALS, ERRORS, SHARD_CALLS, SHARD_ERRORS,
      TRANSACTIONS, RECOVERED, LEASE_AGE, APPLIED_CHANGE, KEYS_MOVING, CACHE_GETS, CACHE_SIZE);
}
