package dev.shardex.driver.events;

/** How a logical statement ended. */
public enum StatementOutcome {
  OK("ok"),
  /**
   * Shardex refused it before sending it anywhere (its error type is the SHX id): unsupported
   * across shards, a missing key, a parse error, a lapsed lease.
   */
  REFUSED("refused"),
  /** A shard or the directory failed it (its error type is the vendor code or the SHX id). */
  ERROR("error");

  private final String tag;

  StatementOutcome(String tag) {
    this.tag = tag;
  }

  public String tag() {
    return tag;
  }
}
