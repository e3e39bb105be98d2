package dev.shardex.driver.execute;

/**
 * Crash-test seam of the lookup write protocol ({@link LookupWrites}): a JVM started with the
 * system property {@value #PROPERTY} set to a point's name halts there, as a driver killed at
 * that moment would (no rollback, no finally, sockets closed by the operating system), with exit
 * code {@value #HALTED} so the test knows the point was reached. The property is read once; with
 * it unset every check is a comparison with a constant null, which the JIT folds away. Its name
 * says it is not a setting: no URL option or DataSource property reaches it.
 */
enum LookupCrashPoint {
  /**
   * The statement's entries are claimed, its values locked; nothing is written on a shard yet. An
   * INSERT's entries are committed here (an UPDATE's are in its open claim).
   */
  CLAIMED,
  /**
   * The rows are written on their shards: an INSERT's committed on its one shard, held uncommitted
   * over several ({@link HeldWrites}); an UPDATE's claim is not committed yet.
   */
  WRITTEN,
  /** An UPDATE's claim is committed; in autocommit its shards' rows are not yet (see {@link HeldWrites}). */
  CLAIM_COMMITTED,
  /** An INSERT's rows are written (committed in autocommit); its values' locks are not released yet. */
  UNLOCKING,
  /** A DELETE or UPDATE has committed; the entries of the values it removed are not released yet. */
  RELEASING;

  static final String PROPERTY = "dev.shardex.internal.crashtest.haltAtLookupStep";
  static final int HALTED = 86;
  private static final LookupCrashPoint HALT_AT = parse(System.getProperty(PROPERTY));

  /** Halts the JVM if it was started to crash here. */
  void reached() {
    if (HALT_AT == this) {
      Runtime.getRuntime().halt(HALTED);
    }
  }

  private static LookupCrashPoint parse(String name) {
    return name == null ? null : valueOf(name);
  }
}
