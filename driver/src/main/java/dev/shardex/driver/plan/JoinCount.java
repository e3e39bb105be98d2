package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.RowsResultSet;
import dev.shardex.driver.sql.JoinSplit;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The counts of a SELECT that only counts a cross-shard join's rows: {@code COUNT(*)} is the number
 * of joined rows, {@code COUNT(col)} the number of them where col is not NULL (a LEFT JOIN's padded
 * NULLs included in the rows, not in the column's count), one row, as one server gives it. The
 * metadata is a shard's own for {@code COUNT(*)} under each label (BIGINT), read from a query that
 * names no table.
 */
final class JoinCount {
  private JoinCount() {}

  static ResultSet of(List<JoinSplit.Count> counts, ResultSet joined, long offset, long limit, LookupJoin.Route route)
      throws SQLException {
    long[] n = new long[counts.size()];
    try (joined) {
      while (joined.next()) {
        for (int i = 0; i < n.length; i++) {
          int item = counts.get(i).item();
          if (item < 0 || joined.getObject(item + 1) != null) {
            n[i]++;
          }
        }
      }
    }
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < counts.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append("COUNT(*) AS `").append(counts.get(i).label().replace("`", "``")).append('`');
    }
    try (ResultSet shape = route.query(sql.toString(), new Object[0])) {
      Cell[] row = new Cell[n.length];
      for (int i = 0; i < n.length; i++) {
        row[i] = Cell.computed(n[i]);
      }
      List<Cell[]> rows = new ArrayList<>();
      if (offset == 0 && limit > 0) {
        rows.add(row);
      }
      return RowsResultSet.of(rows, shape.getMetaData());
    }
  }
}
