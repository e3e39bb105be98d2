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

  /** A plain statement's literals, bound as values (Connector/J inlines them client-side). */
  static MergeSource literals(String text, Object[] literals) {
    return new MergeSource() {
      @Override
      public String mergeText() {
        return text;
      }

      @Override
      public void bindChosen(PreparedStatement ps, int[] chosen) throws SQLException {
        bindLiterals(ps, chosen, literals);
      }
    };
  }

  static void bindLiterals(PreparedStatement ps, int[] chosen, Object[] literals) throws SQLException {
    for (int j = 0; j < chosen.length; j++) {
      ps.setObject(j + 1, literals[chosen[j]]);
    }
  }
}
