package dev.shardex.driver.execute;

/** What a transaction that touches a second shard does (shardex.transactions). */
public enum TransactionMode {
  /**
   * the default: one shard is a plain local transaction; further shards join as XA branches and
   * commit atomically, the first shard's local commit (carrying the commit record) being the
   * commit point ("Logging Last Resource")
   */
  ATOMIC,
  /** refused before anything runs on the second shard */
  SINGLE,
  /** allowed; commit goes shard by shard and reports any shard that failed */
  BEST_EFFORT,
  /** allowed; MySQL XA two-phase commit on every shard with a decision log in the directory */
  XA
}
