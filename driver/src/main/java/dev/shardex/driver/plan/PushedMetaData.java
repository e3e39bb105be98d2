package dev.shardex.driver.plan;

import dev.shardex.driver.merge.MergedMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * The metadata of a statement answered over pushed-back joined rows: the server's for computed
 * columns (aggregates, expressions), and for a column shown as is its table column's (name, type,
 * size, nullability), as one server reports it; the label is always the statement's.
 */
final class PushedMetaData extends SourcedMetaData {
  private final ResultSetMetaData out;
  private final ResultSetMetaData joined;
  private final int[] plain;
  private final Object[] values;

  /** {@code values}: the statement's, for labels the server printed with ?N markers (a literal in an expression). */
  PushedMetaData(ResultSetMetaData out, ResultSetMetaData joined, int[] plain, Object[] values) {
    this.out = out;
    this.joined = joined;
    this.plain = plain;
    this.values = values;
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    return MergedMetaData.fillLabel(out.getColumnLabel(column), values);
  }

  @Override
  protected ResultSetMetaData meta() {
    return out;
  }

  /** The metadata that describes a column: the joined column's when it is shown as is. */
  @Override
  protected ResultSetMetaData of(int column) {
    return column >= 1 && column <= plain.length && plain[column - 1] >= 0 ? joined : out;
  }

  @Override
  protected int at(int column) {
    return column >= 1 && column <= plain.length && plain[column - 1] >= 0 ? plain[column - 1] + 1 : column;
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    return of(column) == joined ? joined.getColumnName(at(column)) : MergedMetaData.fillLabel(out.getColumnName(column), values);
  }

  @Override
  public String getTableName(int column) throws SQLException {
    return of(column).getTableName(at(column));
  }
}
