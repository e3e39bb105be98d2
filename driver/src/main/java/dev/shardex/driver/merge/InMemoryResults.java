package dev.shardex.driver.merge;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.rowset.RowSetMetaDataImpl;

/**
 * Small result sets held in memory (generated keys after the connection went back to its pool,
 * EXPLAIN ROUTE output, a DDL's report), read through {@link RowsResultSet} like merged rows:
 * plain objects, no reflective proxy and no CachedRowSet factory lookup per INSERT.
 */
public final class InMemoryResults {
  private InMemoryResults() {}

  /** Reads a result set fully into memory, so its connection can be released. */
  public static ResultSet copy(ResultSet rs) throws SQLException {
    try (rs) {
      ResultSetMetaData shard = rs.getMetaData();
      int n = shard.getColumnCount();
      RowSetMetaDataImpl meta = new RowSetMetaDataImpl();
      meta.setColumnCount(n);
      for (int i = 1; i <= n; i++) {
        meta.setColumnName(i, shard.getColumnName(i));
        meta.setColumnLabel(i, shard.getColumnLabel(i));
        meta.setColumnType(i, shard.getColumnType(i));
        meta.setColumnTypeName(i, shard.getColumnTypeName(i));
        meta.setNullable(i, shard.isNullable(i));
      }
      List<Cell[]> rows = new ArrayList<>();
      while (rs.next()) {
        Cell[] row = new Cell[n];
        for (int i = 1; i <= n; i++) {
          row[i - 1] = Cell.read(rs, i);
        }
        rows.add(row);
      }
      return new RowsResultSet(rows, meta, null);
    }
  }

  /** A result set of VARCHAR/BIGINT columns holding the given rows. */
  public static ResultSet of(List<String> columns, List<Integer> sqlTypes, List<Object[]> rows) throws SQLException {
    RowSetMetaDataImpl meta = new RowSetMetaDataImpl();
    meta.setColumnCount(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      meta.setColumnName(i + 1, columns.get(i));
      meta.setColumnLabel(i + 1, columns.get(i));
      meta.setColumnType(i + 1, sqlTypes.get(i));
      meta.setNullable(i + 1, ResultSetMetaData.columnNullable);
    }
    List<Cell[]> cells = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      Cell[] r = new Cell[row.length];
      for (int i = 0; i < row.length; i++) {
        r[i] = Cell.computed(row[i]);
      }
      cells.add(r);
    }
    return new RowsResultSet(cells, meta, null);
  }
}
