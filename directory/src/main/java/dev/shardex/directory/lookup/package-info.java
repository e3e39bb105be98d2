/**
 * Lookup indexes: rows found by a column's values ({@code v -> k}, to a key, never to a shard). The
 * catalog and entries in the directory ({@code LookupStore}), one instance's cache of them
 * ({@code Lookups}), a write's pre-write of its entries ({@code LookupClaim}) under advisory locks on
 * the values ({@code ValueLocks}), on connections of their own ({@code ClaimPool}).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A row's entries commit before the row: no committed row is ever without its entry (an
 *       orphan entry is tolerated, re-checked by reads and repaired).
 *   <li>A value's lock is held until its rows are written, so a racing writer of the same value
 *       waits and then finds the entry: a unique lookup is unique across shards.
 *   <li>Only unique entries are cached; deleting or re-pointing one logs a LOOKUP change.
 * </ul>
 *
 * <h2>What it may call</h2>
 * The vocabulary, the directory's store, the change log, {@code client.DirectoryUnreachable}.
 */
package dev.shardex.directory.lookup;
