package dev.shardex.driver.sql;

/** What a statement does, as far as routing cares. */
public enum StatementType {
  SELECT(false),
  INSERT(true),
  REPLACE(true),
  UPDATE(true),
  DELETE(true),
  DDL(true),
  SESSION(false),
  TRANSACTION(false),
  EXPLAIN_ROUTE(false),
  /** EXPLAIN/DESCRIBE of a statement: the plan of each shard the statement routes to (jdbc.ExplainQuery). */
  EXPLAIN(false),
  OTHER(false);

  private final boolean write;

  StatementType(boolean write) {
    this.write = write;
  }

  public boolean isWrite() {
    return write;
  }
}
