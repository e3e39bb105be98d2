/**
 * The JDBC face: what an application holds (Connection, Statement, PreparedStatement, ResultSet
 * metadata) and the one way a statement goes through the driver.
 *
 * <h2>What it is for</h2>
 * The classes an application sees only translate JDBC calls: settings into {@code StatementOptions},
 * fixed answers into {@code ConnectionDefaults}, refusals into the generated {@code Unsupported*}
 * bases. Every execution enters {@code Pipeline.run}, which meets the stages in order: sql
 * (template), route (plan), plan (operator tree, when a statement needs more than sending SQL), run
 * ({@link dev.shardex.driver.plan.Runner}). A JDBC batch ({@code BatchRunner}) and a
 * multi-statement text ({@code MultiStatements}) are planned here too: every entry or part routed
 * first, then either run whole by the runner ({@code Runner.batch}: one physical batch per shard;
 * {@code Runner.text}: the text in one round trip on its one shard) or entry by entry, each
 * through {@code Pipeline.run}. No class here acquires a shard connection to run a statement: what
 * a jdbc class contributes to a physical statement is how its values are bound
 * ({@code ShardCall}, {@code execute.BatchCall}).
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
 * Every other driver package ({@code cluster} for what connections share); nothing calls it but the
 * application and the root's entry points ({@code ShardexDriver}, {@code ShardexDataSource},
 * {@code Recover}), never the packages beneath. {@code MergedQuery} and {@code JoinQuery} build
 * operator trees here because they bind the application's values to the physical statements.
 */
package dev.shardex.driver.jdbc;
