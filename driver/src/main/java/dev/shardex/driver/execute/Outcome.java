package dev.shardex.driver.execute;

import java.sql.ResultSet;

/**
 * What a statement produced: a result set, or an update count (and maybe generated keys), plus
 * warnings (a DDL's per-shard report).
 */
public record Outcome(ResultSet resultSet, long updateCount, ResultSet generatedKeys, java.sql.SQLWarning warnings) {
  public Outcome(ResultSet resultSet, long updateCount, ResultSet generatedKeys) {
    this(resultSet, updateCount, generatedKeys, null);
  }

  public static Outcome count(long n, ResultSet keys) {
    return new Outcome(null, n, keys);
  }

  public boolean isQuery() {
    return resultSet != null;
  }
}
