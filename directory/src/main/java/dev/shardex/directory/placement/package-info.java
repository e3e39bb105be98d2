/**
 * Where keys live: the key map ({@code KeyMapStore}, uncached), and one client's placement caches
 * and key routing ({@code KeyPlacements}, which {@code Directory}'s key methods delegate to), with
 * what the move protocol needs of every driver: writes counted in flight ({@code InFlightWrites}),
 * a statement's reusable marks ({@code KeyMarks}, {@code ReadMarks}) and the rows a move keeps on a
 * shard that does not own them ({@code HiddenRows}).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A write counts itself in flight before it reads the key's placement, and the poller
 *       invalidates the cache before it counts: either the poller waits for the writer, or the
 *       writer sees the directory's FROZEN state. A change is acknowledged only after the writes
 *       routed before it have finished.
 *   <li>A FROZEN key's writes wait, bounded, re-reading the directory (never a cache) until the key
 *       is ACTIVE on its new shard; reads go on.
 *   <li>A key-less read begun before a move's COPYING or FLIPPED phase holds up its
 *       acknowledgement, and later reads exclude the hidden rows: no read counts a key twice.
 *   <li>Routing one key allocates nothing (marks are reused arrays).
 * </ul>
 *
 * <h2>What it may call</h2>
 * The vocabulary, {@code Directory} and its store, the change log, the lease ({@code client.Lease}).
 */
package dev.shardex.directory.placement;
