/**
 * Physical statements on shard connections: leases, transactions, sessions, lookups kept around writes.
 *
 * <h2>What it is for</h2>
 * {@code PlanExecutor} runs a Route's statements for the runner: ONE on the caller's thread, reads on
 * several shards at once (the first on the caller's thread, the rest on the bounded fan-out pool),
 * writes shard by shard naming who applied; {@code BatchExecutor} a routed JDBC batch (one physical
 * batch per shard, counts in the caller's order, a shard's partial failure as one server's
 * {@code BatchUpdateException}), {@code OneTrip} a multi-statement text on its one shard in one round
 * trip. {@code ShardSession} is a logical connection's physical side: {@code ShardLender} lends
 * connections ({@code ShardLease}: borrowed per statement in autocommit, pinned in a transaction or a
 * sticky session), {@code Transaction} keeps the transaction (mode, joined shards, XA branches,
 * savepoints), {@code TransactionEnd} ends it (telemetry, work after commit, connections given
 * back), {@code SessionChanges} the session's SET state.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>The transaction scope is checked before the first shard runs: a refused plan changed nothing.
 *   <li>A query's connection is released by its result set's close, an update's right after it ran.
 *   <li>Every SQLException from a shard is translated once ({@code ShardLease.translate}) into the
 *       error vocabulary, naming the shard; a broken connection is marked so the pool drops it.
 * </ul>
 *
 * <h2>What it may call</h2>
 * The directory (placements, lookups, the commit log), {@code route} (the plans it runs, a write's
 * lookup work), {@code merge} (the result sets it hands back), HikariCP pools and Connector/J; a
 * few upsert and lookup classes read {@code sql}'s cut statements. Never the jdbc or plan packages.
 */
package dev.shardex.driver.execute;
