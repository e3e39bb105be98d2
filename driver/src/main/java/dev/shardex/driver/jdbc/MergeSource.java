package dev.shardex.driver.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * What a cross-shard merge needs from the statement beyond its template: the text that was
 * analysed (a plain statement's normalised text) and how to bind the parameters the rewritten
 * text keeps, chosen by their 0-based indexes. The JDBC statements implement it themselves.
 */
interface MergeSource {
  String mergeText();

  void bindChosen(PreparedStatement ps, int[] chosen) throws SQLException;

  /**
   * Rows past shardex.maxMergeRows its LIMIT may ask for: none for a user's statement; one for a
   * buffered step of a plan, fetched with LIMIT cap+1 so that its cap+1-th row refuses it
   * ({@link dev.shardex.driver.sql.StepLimit}).
   */
  default long limitSlack() {
    return 0;
  }

  /**
   * Whether its shards are asked first how many rows they have, and it is refused past the cap
   * before any row is sent: a buffered step whose reader refuses its cap+1-th row (Materialize).
   */
  default boolean countsFirst() {
    return false;
  }

  /** A plain statement's literals, bound as values (Connector/J inlines them client-side). */
  static MergeSource literals(String text, Object[] literals) {
    return literals(text, literals, 0, false);
  }

  /** A step of a plan, routed as a statement of its own: its literals, and LIMIT cap+1 allowed. */
  static MergeSource step(String text, Object[] literals) {
    return literals(text, literals, 1, false);
  }

  /** A step whose reader refuses its cap+1-th row: as {@link #step}, its shards counted first. */
  static MergeSource counted(String text, Object[] literals) {
    return literals(text, literals, 1, true);
  }

  private static MergeSource literals(String text, Object[] literals, long slack, boolean counts) {
    return new MergeSource() {
      @Override
      public String mergeText() {
        return text;
      }

      @Override
      public void bindChosen(PreparedStatement ps, int[] chosen) throws SQLException {
        bindLiterals(ps, chosen, literals);
      }

      @Override
      public long limitSlack() {
        return slack;
      }

      @Override
      public boolean countsFirst() {
        return counts;
      }
    };
  }

  /** Binds the chosen literals in order; a Long as setLong (what setObject does for it, without its type look-up). */
  static void bindLiterals(PreparedStatement ps, int[] chosen, Object[] literals) throws SQLException {
    for (int j = 0; j < chosen.length; j++) {
      Object v = literals[chosen[j]];
      if (v instanceof Long l) {
        ps.setLong(j + 1, l);
      } else {
        ps.setObject(j + 1, v);
      }
    }
  }
}
