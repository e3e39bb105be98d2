package dev.shardex.driver.plan;

import dev.shardex.driver.merge.DelegatingMetaData;
import dev.shardex.driver.merge.MergedMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * The metadata of a statement answered over pushed-back joined rows: the server's for computed
 * columns (aggregates, expressions), and for a column shown as is its table column's (name, type,
 * size, nullability), as one server reports it; the label is always the statement's.
 */
final class PushedMetaData extends DelegatingMetaData {
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
  private ResultSetMetaData of(int column) {
    return column >= 1 && column <= plain.length && plain[column - 1] >= 0 ? joined : out;
  }

  private int at(int column) {
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

  @Override
  public int getColumnType(int column) throws SQLException {
    return of(column).getColumnType(at(column));
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    return of(column).getColumnTypeName(at(column));
  }

  @Override
  public String getColumnClassName(int column) throws SQLException {
    return of(column).getColumnClassName(at(column));
  }

  @Override
  public int getPrecision(int column) throws SQLException {
    return of(column).getPrecision(at(column));
  }

  @Override
  public int getScale(int column) throws SQLException {
    return of(column).getScale(at(column));
  }

  @Override
  public int isNullable(int column) throws SQLException {
    return of(column).isNullable(at(column));
  }

  @Override
  public int getColumnDisplaySize(int column) throws SQLException {
    return of(column).getColumnDisplaySize(at(column));
  }

  @Override
  public boolean isSigned(int column) throws SQLException {
    return of(column).isSigned(at(column));
  }

  @Override
  public boolean isCaseSensitive(int column) throws SQLException {
    return of(column).isCaseSensitive(at(column));
  }
}
