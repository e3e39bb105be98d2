/**
 * The directory: where every key lives, and the catalog of shards and tables, in a MySQL database
 * of its own; read over plain JDBC and cached by each driver instance.
 *
 * <h2>What it is for</h2>
 * {@code Directory} is one driver instance's view: it opens over a URL ({@code DirectoryPool}: its
 * own small HikariCP pool, credentials kept out of every URL it logs) or over a store the caller
 * owns, and answers routing questions from caches it keeps fresh by polling the change log, under a
 * lease that guards writes. {@code DirectoryStore} is the uncached authority, one store per group of
 * tables in the sub-packages, sharing its connections, its transaction ({@code Retry}: a deadlock
 * victim runs again, by one policy) and its error naming (a lost directory is SHX1406).
 * {@code DirectorySchema} creates and upgrades every table; {@code Redact} keeps passwords out of
 * URLs and messages.
 *
 * <h2>The sub-packages</h2>
 * {@code catalog} (shards, key spaces, tables and their cache), {@code placement} (the key map, the
 * placement caches, writes in flight and the move protocol's marks), {@code change} (the change log
 * and its poller), {@code client} (a driver instance's id, lease, heartbeat row and directory
 * connections), {@code lookup} (lookup indexes and their claims), {@code sequence} (sequence-filled
 * columns), {@code xa} (the XA decision log) and {@code move} (online moves, verify, rebalance).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Every catalog write and every change to an existing key's placement appends to the change
 *       log in the same transaction; a driver that polls the log sees every change, in order.
 *   <li>A driver never caches a key's absence, so placing a new key is not logged.
 *   <li>A driver whose last successful poll is older than its lease refuses writes on its own:
 *       movers stop waiting for it only after that.
 * </ul>
 *
 * <h2>What it may call</h2>
 * The vocabulary, Connector/J, HikariCP and Caffeine; never the driver or the CLI.
 */
package dev.shardex.directory;
