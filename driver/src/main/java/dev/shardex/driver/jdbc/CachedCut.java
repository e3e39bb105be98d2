package dev.shardex.driver.jdbc;

import dev.shardex.driver.sql.JoinAggregates;
import dev.shardex.driver.sql.JoinPushdown;
import dev.shardex.driver.sql.JoinSplitter;
import dev.shardex.driver.sql.TemplateCache;
import java.sql.SQLException;

/**
 * A cut of a statement's text that a cross-shard plan is built from (a lookup join's split, a fold of a
 * join's aggregates, a GLOBAL outer join, a push-down join), made once per key (the catalog version and the text) and
 * cached with its outcome: the cut, none (a statement it does not apply to), or the reason it
 * refused the statement, so a refused statement is not cut again to word its refusal.
 */
final class CachedCut<T> {
  /** A cut of the text: null when it does not apply; a Refused names why it cannot be cut. */
  interface Cut<T> {
    T of() throws SQLException, JoinAggregates.Refused, JoinPushdown.Refused, JoinSplitter.Refused;
  }

  /** The statement's refusal for a cut's reason. */
  interface Refusal {
    SQLException of(String reason) throws SQLException;
  }

  /**
   * A key of a cut cached per statement without writing a key text per execution (the plain lookup
   * join's, jdbc.JoinQuery#plan): the catalog version, the tables' column loads, the cap and the
   * statement's text (a prepared statement's own String: its hash is kept, it equals by identity).
   * Equality written out: a record's own goes through method handles, dearer than the lookup.
   */
  record Key(long catalog, long loads, int cap, String text) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && catalog == k.catalog && loads == k.loads && cap == k.cap && text.equals(k.text);
    }

    @Override
    public int hashCode() {
      return ((Long.hashCode(catalog) * 31 + Long.hashCode(loads)) * 31 + cap) * 31 + text.hashCode();
    }
  }

  private final T plan;
  private final String refused;

  private CachedCut(T plan, String refused) {
    this.plan = plan;
    this.refused = refused;
  }

  static <T> CachedCut<T> of(TemplateCache cache, String key, Cut<T> cut) throws SQLException {
    return cache.<CachedCut<T>>crossShard(key, () -> {
      try {
        return new CachedCut<>(cut.of(), null);
      } catch (JoinAggregates.Refused | JoinPushdown.Refused | JoinSplitter.Refused e) {
        return new CachedCut<>(null, e.getMessage());
      }
    });
  }

  /** The cut, or null when it does not apply; its refusal when it refused the statement. */
  T plan(Refusal refusal) throws SQLException {
    if (refused != null) {
      throw refusal.of(refused);
    }
    return plan;
  }

  /** The cut; {@code otherwise} when it does not apply or refused the statement. */
  T planOr(SQLException otherwise) throws SQLException {
    if (plan == null) {
      throw otherwise;
    }
    return plan;
  }
}
