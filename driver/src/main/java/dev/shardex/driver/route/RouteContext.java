package dev.shardex.driver.route;

import dev.shardex.directory.Directory;

/**
 * What routing needs besides the statement: the directory, the options that change routing, and
 * the shard a transaction already runs on (reads that may go anywhere prefer it), and whether this
 * is a dry run (EXPLAIN ROUTE), which must not place keys.
 */
public record RouteContext(
    Directory directory, boolean hintsEnabled, boolean scatterWrites, Integer preferredShard, boolean dryRun) {

  /** The same context for EXPLAIN ROUTE: nothing is placed in the directory. */
  public RouteContext explaining() {
    return new RouteContext(directory, hintsEnabled, scatterWrites, preferredShard, true);
  }
}
