package dev.shardex.driver.events;

/** Where a logical statement ran, as telemetry names it (the tag value is {@link #tag()}). */
public enum RouteKind {
  /** One shard, by its key (or the transaction's shard). */
  ONE_SHARD("one_shard"),
  /** Some of the shards, concatenated or summed (an IN list over several keys, a split INSERT). */
  SEVERAL("several"),
  /** Every shard: a key-less read or write, a GLOBAL table's write, DDL. */
  ALL("all"),
  /** Several shards whose rows the driver merges (ORDER BY, LIMIT, aggregates, GROUP BY, DISTINCT). */
  MERGED("merged"),
  /** A cross-shard join: the driver runs each side and joins the rows. */
  JOIN("join"),
  /** An INSERT without its key held in the transaction until its key arrives. */
  HELD("held"),
  /** Answered by the driver itself: SET, USE, BEGIN/COMMIT/ROLLBACK, EXPLAIN ROUTE. */
  LOCAL("local"),
  /** Refused or failed before it was routed. */
  NONE("none");

  private final String tag;

  RouteKind(String tag) {
    this.tag = tag;
  }

  /** The lower-case name used as a tag or attribute value. */
  public String tag() {
    return tag;
  }
}
