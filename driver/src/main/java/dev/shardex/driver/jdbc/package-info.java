/**
 * The JDBC face: what an application holds (Connection, Statement, PreparedStatement, ResultSet
 * metadata) and the one way a statement goes through the driver.
 *
 * <h2>What it is for</h2>
 * The classes an application sees only translate JDBC calls: settings into {@code StatementOptions},
 * fixed answers into {@code ConnectionDefaults}, refusals into the generated {@code Unsupported*}
 * bases. Every execution, plain, prepared, batched or multi-statement, enters {@code Pipeline.run},
 * which meets the stages in order: sql (template), route (plan), plan (operator tree, when a
 * statement needs more than sending SQL), run ({@link dev.shardex.driver.plan.Runner}).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A refusal is an {@code SQLException} with a Shardex id and an SQLState that no pool reads
 *       as a dead connection (0AS00, never 0A000 or class 08): the logical connection stays usable.
 *   <li>The logical connection's session values (LAST_INSERT_ID(), ROW_COUNT(), FOUND_ROWS()) follow
 *       every statement, refused ones included ({@code ValueTracking}).
 *   <li>A single-shard statement allocates no call objects: a statement is its own
 *       {@code ShardCall} and {@code MergeSource}.
 * </ul>
 *
 * <h2>What it may call</h2>
 * Every other driver package; nothing calls it but the application (and {@code ShardexDriver}).
 * {@code MergedQuery} and {@code JoinQuery} build operator trees here because they bind the
 * application's values to the physical statements.
 */
package dev.shardex.driver.jdbc;
