/**
 * The words the driver's analysis and the directory both speak, with no code of either.
 *
 * <h2>What it is for</h2>
 * The errors: {@code ShardexError} (every SHX id, its SQLState and message; docs/errors.md lists
 * them), {@code SqlState} (the states Shardex answers with), {@code MysqlError} (the server errors
 * Shardex reacts to, or answers as one server would) and {@code ErrorKind}, the one classifier of
 * any SQLException, raised or received. The catalog's words: {@code TableKind} (SHARDED, GLOBAL,
 * SINGLE), {@code TableDef}, {@code KeySpace} and {@code KeyType} (a key's canonical form, what makes
 * {@code 42}, {@code 42L} and {@code "42"} one key; {@code KeyNumber} reads numbers as MySQL does).
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Every SQLException Shardex raises is made here ({@code ShardexError.exception},
 *       {@code withCause}, or {@code MysqlError}); nothing else reads SQLStates or vendor codes than
 *       {@code ErrorKind}.
 *   <li>No error of an open connection carries a class-08 state: pools read those as "this
 *       connection is dead" ({@code ErrorKindTest} checks every id).
 *   <li>Values only: no I/O, no caches, no state beyond constants.
 * </ul>
 *
 * <h2>What it may call</h2>
 * The JDK only. The directory, the driver and the CLI depend on it; it depends on nothing of
 * Shardex (the sandbox does not use it).
 */
package dev.shardex.vocabulary;
