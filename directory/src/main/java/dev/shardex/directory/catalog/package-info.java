/**
 * The catalog: the shards ({@code Shard}, {@code ShardStatus}), the key spaces and the declared
 * tables, as the directory stores them ({@code CatalogStore}) and as one driver instance caches them
 * ({@code CatalogCache}).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Every write logs a change in its transaction: SHARD for a shard, KEYSPACE, TABLE.
 *   <li>The cache loads tables and key spaces on first use (absent ones too) and never scans the
 *       catalog at start-up; a change drops exactly what it names and bumps the catalog version,
 *       by which the driver reuses what it derived from the catalog.
 *   <li>A shard leaves the catalog only when the key map places no key on it and no SINGLE table
 *       lives there.
 * </ul>
 *
 * <h2>What it may call</h2>
 * The vocabulary, the directory's store and the change log ({@code change.ChangeLog}).
 */
package dev.shardex.directory.catalog;
