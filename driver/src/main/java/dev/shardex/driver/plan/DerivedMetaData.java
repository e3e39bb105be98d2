package dev.shardex.driver.plan;

import dev.shardex.driver.merge.DelegatingMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The metadata of a statement run over derived tables' rows: a column that shows a derived column as
 * it is (the server names no table for it and calls it by that column's name) is described as the
 * derived column was (type, size, nullability: a JSON_TABLE column is always nullable), as one server
 * describes a derived table's column; any other is the server's own. The label is always the
 * statement's. A name that two derived tables share is left as the server gives it.
 */
final class DerivedMetaData extends DelegatingMetaData {
  private final ResultSetMetaData out;
  private final Map<String, int[]> derived = new HashMap<>(); // column name -> {part, column}, or {-1} when shared
  private final List<ResultSetMetaData> parts;

  DerivedMetaData(ResultSetMetaData out, List<ResultSetMetaData> parts, List<List<String>> names) {
    this.out = out;
    this.parts = parts;
    for (int p = 0; p < parts.size(); p++) {
      for (int c = 0; c < names.get(p).size(); c++) {
        derived.merge(names.get(p).get(c), new int[] {p, c + 1}, (a, b) -> new int[] {-1});
      }
    }
  }

  @Override
  protected ResultSetMetaData meta() {
    return out;
  }

  /** {part, column} of the derived column an output column shows as is, or null. */
  private int[] source(int column) throws SQLException {
    String table = out.getTableName(column);
    int[] at = table == null || table.isEmpty() ? derived.get(out.getColumnName(column)) : null;
    return at == null || at[0] < 0 ? null : at;
  }

  @Override
  public int isNullable(int column) throws SQLException {
    int[] at = source(column);
    return at == null ? out.isNullable(column) : parts.get(at[0]).isNullable(at[1]);
  }

  @Override
  public int getPrecision(int column) throws SQLException {
    int[] at = source(column);
    return at == null ? out.getPrecision(column) : parts.get(at[0]).getPrecision(at[1]);
  }

  @Override
  public int getColumnDisplaySize(int column) throws SQLException {
    int[] at = source(column);
    return at == null ? out.getColumnDisplaySize(column) : parts.get(at[0]).getColumnDisplaySize(at[1]);
  }
}
