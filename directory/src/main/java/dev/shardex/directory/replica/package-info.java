/**
 * How far a shard's read replica is behind its primary, measured, never assumed.
 *
 * <p>A heartbeat row ({@code shardex.heartbeat}: the shard id and the primary's clock in ms) is
 * written on each primary and travels to its replicas with every other change; a replica's lag is
 * the primary's clock now minus the heartbeat it holds, both read from the primary's clock so no
 * clock skew enters. A replica whose applied GTID position already covers the primary's is exactly
 * caught up (lag 0); one with no heartbeat row, a stopped SQL or I/O thread, no replication at all,
 * or that cannot be reached has an <em>unknown</em> lag, which is never read as zero.
 *
 * <h2>What it may call</h2>
 * JDBC on connections it is given (a primary's and a replica's); nothing of the directory database.
 */
package dev.shardex.directory.replica;
