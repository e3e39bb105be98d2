package dev.shardex.driver.events;

/** How a transaction that ran statements on at least one shard ended. */
public enum TransactionOutcome {
  COMMITTED("committed"),
  ROLLED_BACK("rolled_back"),
  /** The commit or rollback threw: see the SHX id (SHX1302 partial, SHX1303 rolled back, SHX1304 unknown). */
  FAILED("failed");

  private final String tag;

  TransactionOutcome(String tag) {
    this.tag = tag;
  }

  public String tag() {
    return tag;
  }
}
