/**
 * Template and values to a {@code RoutePlan}: which shards a statement runs on, and what each gets.
 *
 * <h2>What it is for</h2>
 * {@code KeyRoute} is the fast path: a key-equality template is bound to the catalog once per
 * catalog version and routes with no allocation into a shared one-shard plan. {@code Router}
 * dispatches the rest ({@code QueryRoute} for SELECT/UPDATE/DELETE, {@code InsertRoute},
 * {@code DdlRoute}; {@code LookupRoute} routes by a lookup index). A plan's {@code Fanout} says how
 * its shards' answers combine: ONE, CONCAT, MERGE (an operator tree), JOIN (a cross-shard tree),
 * SUM/REPLICATE (writes), DDL, HOLD (a row waiting for its key).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Routing changes nothing: placing a new key happens only for a statement that will run, and
 *       a dry run (EXPLAIN ROUTE, {@code RouteContext.explaining()}) places none.
 *   <li>A key read during a move is marked ({@code KeyMarks}) so the pipeline can route it again
 *       if the key flipped while it ran.
 *   <li>A connection reuses one {@code RouteContext}: the hot path allocates nothing.
 * </ul>
 *
 * <h2>What it may call</h2>
 * {@code sql} (templates) and the directory (catalog, placements, lookups); never a shard, except
 * {@code TableSchemas} reading a table's columns once. ({@code LookupRoute} reads an
 * {@code execute.Outcome} to tell a read that found no row by a cached lookup entry.)
 */
package dev.shardex.driver.route;
