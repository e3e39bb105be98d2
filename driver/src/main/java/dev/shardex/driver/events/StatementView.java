package dev.shardex.driver.events;

import java.sql.SQLException;

/**
 * One logical statement as listeners see it. The object is reused for the connection's next
 * statement: read it during the callback, keep no reference.
 */
public interface StatementView {
  ClusterView cluster();

  /** SELECT, INSERT, REPLACE, UPDATE, DELETE, DDL, SESSION, TRANSACTION, EXPLAIN, EXPLAIN_ROUTE or OTHER. */
  String operation();

  /** The table the statement is about (an INSERT's or UPDATE's target, a SELECT's first table), or null. */
  String table();

  /** How many distinct tables it names (db.collection.name is set only for one). */
  int tableCount();

  /** Operation and tables, low cardinality, at most 255 characters: {@code SELECT posts comments}. */
  String summary();

  /** The text with every literal replaced by {@code ?} (parameters stay {@code ?}); computed when asked. */
  String queryText();

  /** Where it ran; {@link RouteKind#NONE} until routed. */
  RouteKind route();

  /** Shard calls it made so far (its fan-out; a cross-shard join counts every side's calls). */
  int shardCalls();

  /** How it ended; null while it runs. */
  StatementOutcome outcome();

  /** The SHX id (SHX1207) or the shard's vendor code (1062) of its error; null when it succeeded. */
  String errorType();

  /** Its error, or null. */
  SQLException error();

  /** When it started ({@link System#nanoTime()}). */
  long startNanos();

  /** How long it ran (set at its end). */
  long elapsedNanos();
}
