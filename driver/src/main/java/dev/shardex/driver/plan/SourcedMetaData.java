package dev.shardex.driver.plan;

import dev.shardex.driver.merge.DelegatingMetaData;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * Metadata whose type attributes (type, class, precision, scale, size, nullability, sign, case)
 * of each column come from the column that describes it: another result's ({@link #of}, at
 * {@link #at}), or this result's own ({@link #meta}).
 */
abstract class SourcedMetaData extends DelegatingMetaData {
  /** The metadata that describes a column. */
  protected abstract ResultSetMetaData of(int column) throws SQLException;

  /** The column's position in {@link #of}. */
  protected abstract int at(int column);

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
