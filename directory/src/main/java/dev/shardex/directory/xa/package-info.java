/**
 * The XA decision log ({@code XaLog}): a cross-shard transaction in the 'xa' mode is committed the
 * moment its decision row is written, after every branch prepared.
 *
 * <h2>Invariants</h2>
 * Recovery commits prepared branches that have a decision and rolls back those that have none
 * (presumed abort), and only once their coordinator's client id is no longer live.
 *
 * <h2>What it may call</h2>
 * The directory's store.
 */
package dev.shardex.directory.xa;
