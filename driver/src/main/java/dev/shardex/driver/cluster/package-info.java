/**
 * What the logical connections of one driver instance share, and the configuration that names it.
 *
 * <h2>What it is for</h2>
 * {@code ShardexConfig} reads a {@code jdbc:shardex:} URL and its options ({@code ShardexProperty},
 * the one option enum the README's table is checked against); {@code Authenticator} proves the
 * credentials against the directory and keys clusters by a salted digest of the passwords;
 * {@code Cluster} opens what connections with the same directory, credentials and instance share:
 * the directory client (caches, lease, poller), the shard pools, the template cache, the fan-out
 * pool, telemetry and the recovery pass, and the embedded sandbox's bootstrap. {@code Warmup} loads
 * the SQL parser on another core while the first directory connection opens.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A password is never kept in a key, a log line or a URL HikariCP sees: clusters are keyed by
 *       a per-JVM salted SHA-256 of the passwords.
 *   <li>Opening a cluster costs a few directory round trips and no table-metadata scan.
 * </ul>
 *
 * <h2>What it may call, and who calls it</h2>
 * The driver's packages go, from the top: the root ({@code ShardexDriver}, {@code ShardexDataSource},
 * {@code Recover}: the entry points) -> {@code jdbc} -> {@code cluster}, {@code plan} ->
 * {@code execute}, {@code events}, {@code route} -> {@code merge} -> {@code sql} (the middle three
 * still read one another: {@code route} an {@code execute.Outcome}, {@code events} the pools). This package may call {@code execute} (pools, recovery, the fan-out pool),
 * {@code route} (route contexts, table schemas), {@code sql} (the template cache), {@code events}
 * and the directory; never {@code jdbc} or the root, which open it (the sandbox's stop hook is
 * handed in by {@code ShardexDriver}, so no import goes upward).
 */
package dev.shardex.driver.cluster;
