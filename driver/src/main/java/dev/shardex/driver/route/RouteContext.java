package dev.shardex.driver.route;

import dev.shardex.directory.Directory;

/**
 * What routing needs besides the statement: the directory, the options that change routing, and
 * the shard a transaction already runs on (reads that may go anywhere prefer it), and whether this
 * is a dry run (EXPLAIN ROUTE), which must not place keys. {@code guards} collects the in-flight
 * marks of the keys a write routes, released by the caller once the write has finished; {@code held}
 * are those the caller's transaction already holds.
 */
public record RouteContext(
    Directory directory, boolean hintsEnabled, boolean scatterWrites, Integer preferredShard, boolean dryRun,
    java.util.List<AutoCloseable> guards, int sequenceBlock, java.util.Collection<AutoCloseable> held,
    TableSchemas schemas) {

  public RouteContext(Directory directory, boolean hintsEnabled, boolean scatterWrites, Integer preferredShard,
      boolean dryRun, java.util.List<AutoCloseable> guards, int sequenceBlock, java.util.Collection<AutoCloseable> held) {
    this(directory, hintsEnabled, scatterWrites, preferredShard, dryRun, guards, sequenceBlock, held, null);
  }

  public RouteContext(Directory directory, boolean hintsEnabled, boolean scatterWrites, Integer preferredShard,
      boolean dryRun, int sequenceBlock, java.util.Collection<AutoCloseable> held) {
    this(directory, hintsEnabled, scatterWrites, preferredShard, dryRun, new java.util.ArrayList<>(), sequenceBlock, held,
        null);
  }

  /** The same context knowing tables' columns and unique keys. */
  public RouteContext withSchemas(TableSchemas s) {
    return new RouteContext(directory, hintsEnabled, scatterWrites, preferredShard, dryRun, guards, sequenceBlock, held, s);
  }

  /** A table's columns and unique keys (read lazily), or UNKNOWN without schema access. */
  public TableSchemas.Schema schema(String table) throws java.sql.SQLException {
    return schemas == null ? TableSchemas.Schema.UNKNOWN : schemas.of(table);
  }

  /** The same context for EXPLAIN ROUTE: nothing is placed in the directory, no key is guarded. */
  public RouteContext explaining() {
    return new RouteContext(directory, hintsEnabled, scatterWrites, preferredShard, true, guards, sequenceBlock, held,
        schemas);
  }

  /**
   * The placement a read routes a key by; outside a dry run, what it was routed by is kept (in
   * {@code guards}) so the caller can check, once the shards answered, that no move flipped the key
   * meanwhile ({@link dev.shardex.directory.ReadMarks#current}).
   */
  public dev.shardex.directory.Placement read(String keySpace, Object key) throws java.sql.SQLException {
    return dryRun ? directory.routeRead(keySpace, key) : directory.routeRead(keySpace, key, guards);
  }

  /**
   * Marks a key-less read of the key space's SHARDED tables (not on a dry run): the mark, kept in
   * {@code guards} until the read has its answer, says which rows each shard must hide.
   */
  void scatter(String keySpace, java.util.Map<String, String> keyColumns, boolean numeric) {
    if (!dryRun) {
      guards.add(new RoutePlan.ScatterMark(directory.beginScatter(keySpace), keyColumns, numeric));
    }
  }

  /** How a write routes a key: place new keys (INSERT), only existing ones (UPDATE/DELETE), or predict. */
  public Directory.WriteMode mode(boolean insert) {
    return dryRun ? Directory.WriteMode.PREDICT : insert ? Directory.WriteMode.PLACE : Directory.WriteMode.EXISTING;
  }
}
