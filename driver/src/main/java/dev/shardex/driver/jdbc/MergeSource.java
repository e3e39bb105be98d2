package dev.shardex.driver.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * What a cross-shard merge needs from the statement beyond its template: the text that was
 * analysed (a plain statement's normalised text) and how to bind the parameters the rewritten
 * text keeps, chosen by their 0-based indexes.
 */
record MergeSource(String text, Binder binder) {
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement ps, int[] chosen) throws SQLException;
  }

  /** A plain statement's literals, bound as values (Connector/J inlines them client-side). */
  static MergeSource literals(String text, Object[] literals) {
    return new MergeSource(text, (ps, chosen) -> {
      for (int j = 0; j < chosen.length; j++) {
        ps.setObject(j + 1, literals[chosen[j]]);
      }
    });
  }
}
