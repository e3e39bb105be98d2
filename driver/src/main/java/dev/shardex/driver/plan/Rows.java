package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.RowsResultSet;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows a client-side operator holds in memory, with the metadata of the shard columns they came
 * from. Reading an input that another operator already buffered takes its rows without a copy;
 * reading shard rows stops with SHX1207 past {@code cap} (shardex.maxMergeRows), before any more is held.
 */
record Rows(List<Cell[]> cells, ResultSetMetaData meta) {
  static Rows read(ResultSet rs, long cap, String shards) throws SQLException {
    if (rs instanceof RowsResultSet held) {
      return new Rows(held.cells(), held.getMetaData());
    }
    try (rs) {
      ResultSetMetaData meta = rs.getMetaData();
      int total = meta.getColumnCount();
      List<Cell[]> rows = new ArrayList<>();
      while (rs.next()) {
        if (rows.size() >= cap) {
          throw pastCap(cap, shards);
        }
        Cell[] row = new Cell[total];
        for (int i = 0; i < total; i++) {
          row[i] = Cell.read(rs, i + 1);
        }
        rows.add(row);
      }
      return new Rows(rows, meta);
    }
  }

  /** The refusal of a read past {@code cap} rows (SHX1207), whether its rows were read or only counted. */
  static SQLException pastCap(long cap, String shards) {
    return ShardexError.CROSS_SHARD.exception("SELECT", shards, "merging it would read more than "
        + cap + " rows (shardex.maxMergeRows)", "narrow it, add the key, or raise shardex.maxMergeRows");
  }

  /** Whether a refusal is that of a read past shardex.maxMergeRows (this one's, or a merge's of its own). */
  static boolean overCap(SQLException e) {
    return ShardexError.CROSS_SHARD.is(e) && e.getMessage() != null && e.getMessage().contains("rows (shardex.maxMergeRows)");
  }

  /** Per column: whether the server compares it case-insensitively (the shard's own answer). */
  boolean[] caseInsensitive() throws SQLException {
    boolean[] ci = new boolean[meta.getColumnCount()];
    for (int i = 0; i < ci.length; i++) {
      ci[i] = !meta.isCaseSensitive(i + 1);
    }
    return ci;
  }

  ResultSet result(Runner run) {
    return RowsResultSet.of(cells, meta, run.owner());
  }
}
