package dev.shardex.driver.execute;

/** What a transaction that touches a second shard does (shardex.transactions). */
public enum TransactionMode {
  /** refused before anything runs on the second shard */
  SINGLE,
  /** allowed; commit goes shard by shard and reports any shard that failed */
  BEST_EFFORT,
  /** allowed; MySQL XA two-phase commit with a decision log in the directory */
  XA
}
