/**
 * A statement's plan as a tree of operators, and the one runner that opens it.
 *
 * <h2>What it is for</h2>
 * A statement that needs more than sending SQL to its shards is a tree: leaves send SQL
 * ({@code Route}, {@code Gather}, {@code Step}), inner nodes work on their inputs' rows in the
 * client ({@code MergeSort}, {@code Aggregate}, {@code Filter}, {@code Distinct}, {@code Sort},
 * {@code Limit}, {@code Project}, {@code LookupJoin}, {@code JoinCount}, {@code PullOut} (with
 * {@code ScalarValue} and {@code TypedColumns}), {@code Materialize}, {@code PushBack}). One operator per file. The central rule, as in Vitess:
 * anything pushed under a Route is turned into SQL and run by MySQL; the client only pairs, folds,
 * sorts and cuts.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>{@link dev.shardex.driver.plan.Runner} is the only place physical statements start: plain,
 *       merged, batches and multi-statement text;
 *       a node opens its inputs through it, never directly, so EXPLAIN ANALYZE ROUTE sees every step.
 *   <li>Bounded by construction: a node that buffers rows holds at most shardex.maxMergeRows and
 *       refuses by name past it, before any later step runs.
 *   <li>Exact or refused: metadata is the shards' (or the table column's); values keep the text the
 *       shard gave, so a value given back to a server reads back the same.
 *   <li>A single-step plan needs no tree: {@code Runner.route} is static and the hot path allocates
 *       nothing here. Neither do a JDBC batch whose entries are all routed ({@code Runner.batch}:
 *       one physical batch per shard, and text for a prepared one) and a multi-statement text
 *       whose parts all route to one shard ({@code Runner.text}: one round trip); the jdbc layer
 *       plans them (every entry or part routed before anything runs) and the runner sends them.
 * </ul>
 *
 * <h2>What it may call</h2>
 * {@code execute} (physical statements, through the runner), {@code merge} (values, result sets,
 * folds) and {@code sql} (the cut statements). A step that is a statement of its own goes back
 * through the pipeline by the {@code Runner.Steps} the jdbc layer gives.
 */
package dev.shardex.driver.plan;
