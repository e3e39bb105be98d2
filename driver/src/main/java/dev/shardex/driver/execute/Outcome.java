package dev.shardex.driver.execute;

import java.sql.ResultSet;

/**
 * What a statement produced: a result set, or an update count (and maybe generated keys), plus
 * warnings (a DDL's per-shard report) and the id the shard's OK packet reported (0 when none).
 */
public record Outcome(ResultSet resultSet, long updateCount, ResultSet generatedKeys, java.sql.SQLWarning warnings,
    long insertId) {
  public Outcome(ResultSet resultSet, long updateCount, ResultSet generatedKeys, java.sql.SQLWarning warnings) {
    this(resultSet, updateCount, generatedKeys, warnings, 0);
  }

  public Outcome(ResultSet resultSet, long updateCount, ResultSet generatedKeys) {
    this(resultSet, updateCount, generatedKeys, null, 0);
  }

  public static Outcome count(long n, ResultSet keys) {
    return new Outcome(null, n, keys);
  }

  /** An update count with the id the shard reported for it. */
  public static Outcome count(long n, ResultSet keys, long insertId) {
    return new Outcome(null, n, keys, null, insertId);
  }

  public boolean isQuery() {
    return resultSet != null;
  }
}
