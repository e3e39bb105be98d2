/**
 * The change log: the numbered list of catalog and key-map changes ({@code Change}), appended inside
 * the writer's transaction ({@code ChangeLog}), and the poller that hands each change to a driver's
 * caches, heartbeats the last change applied and renews the lease ({@code ChangePoller}).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A change is logged exactly when its write commits; the counter's row lock orders commits,
 *       so ids increase in commit order.
 *   <li>The applied change number a client heartbeats is its acknowledgement: it is raised past a
 *       key change only once the writes in flight to that key have finished.
 *   <li>A failed poll leaves the lease to run out; it is logged once per failure streak.
 * </ul>
 *
 * <h2>What it may call</h2>
 * The directory's store and {@code client.Lease}.
 */
package dev.shardex.directory.change;
