/**
 * A driver instance as the directory knows it: its id ({@code ClientIds}), its row in the clients
 * table with heartbeat and applied change ({@code ClientStore}), the lease that guards its writes
 * ({@code Lease}), where its directory connections come from ({@code DirectoryConnections}) and how
 * a directory it cannot reach is told ({@code DirectoryUnreachable}, SHX1406).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A client id never repeats (clock, process id and a random part): XA gtrids and commit
 *       records carry it.
 *   <li>The lease is renewed with the time a poll started, so a slow poll never stretches it;
 *       movers wait the lease plus a margin past a client's last heartbeat, by the directory's clock.
 *   <li>No password reaches a message: errors are redacted ({@code Redact}).
 * </ul>
 *
 * <h2>What it may call</h2>
 * The vocabulary, the directory's store and {@code Redact}.
 */
package dev.shardex.directory.client;
