package dev.shardex.driver.route;

/** How the execute and merge stages treat a plan's shards. */
public enum Fanout {
  /** One shard; its result is the answer. */
  ONE,
  /** A read on several shards whose rows concatenate exactly (no ORDER BY, LIMIT, aggregates...). */
  CONCAT,
  /** A read on several shards that the merge stage combines: ORDER BY, LIMIT, aggregates, GROUP BY, DISTINCT. */
  MERGE,
  /** A write of a GLOBAL table: the same change on every shard; one shard's count is the answer. */
  REPLICATE,
  /** A write of several shards' own rows: the counts add up. */
  SUM,
  /** DDL on every shard the table lives on, with a per-shard report. */
  DDL,
  /** An INSERT without its key inside a transaction: no shard yet, held until an UPDATE gives the key (see PendingRoute). */
  HOLD,
  /**
   * A statement that runs statements of its own (jdbc.JoinQuery): a SELECT whose SHARDED tables live
   * apart (plan.LookupJoin), whose derived tables need a merge first (plan.Derive), or an INSERT ...
   * SELECT whose rows are read first (plan.InsertRows).
   */
  JOIN
}
