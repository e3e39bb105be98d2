package dev.shardex.driver.merge;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * Metadata of a cross-shard join's rows: each column is the column of one side's result that it
 * came from, so labels, types, precision and class names are what the shards reported. A LEFT
 * JOIN's inner-side columns are nullable, as one server reports them.
 */
public final class JoinedMetaData implements ResultSetMetaData {
  private final ResultSetMetaData[] sides;
  private final int[] side;
  private final int[] column;
  private final boolean padded;

  /** Column {@code i + 1} is column {@code column[i]} of {@code sides[side[i]]}; side 1 is padded with NULL when {@code padded}. */
  public JoinedMetaData(ResultSetMetaData driving, ResultSetMetaData dependent, int[] side, int[] column, boolean padded) {
    this.sides = new ResultSetMetaData[] {driving, dependent};
    this.side = side;
    this.column = column;
    this.padded = padded;
  }

  private ResultSetMetaData m(int c) throws SQLException {
    if (c < 1 || c > side.length) {
      throw dev.shardex.vocabulary.ShardexError.COLUMN_INDEX.exception(c, side.length);
    }
    return sides[side[c - 1]];
  }

  private int at(int c) {
    return column[c - 1];
  }

  @Override
  public int getColumnCount() {
    return side.length;
  }

  @Override
  public boolean isAutoIncrement(int c) throws SQLException {
    return m(c).isAutoIncrement(at(c));
  }

  @Override
  public boolean isCaseSensitive(int c) throws SQLException {
    return m(c).isCaseSensitive(at(c));
  }

  @Override
  public boolean isSearchable(int c) throws SQLException {
    return m(c).isSearchable(at(c));
  }

  @Override
  public boolean isCurrency(int c) throws SQLException {
    return m(c).isCurrency(at(c));
  }

  @Override
  public int isNullable(int c) throws SQLException {
    return padded && side[c - 1] == 1 ? columnNullable : m(c).isNullable(at(c));
  }

  @Override
  public boolean isSigned(int c) throws SQLException {
    return m(c).isSigned(at(c));
  }

  @Override
  public int getColumnDisplaySize(int c) throws SQLException {
    return m(c).getColumnDisplaySize(at(c));
  }

  @Override
  public String getColumnLabel(int c) throws SQLException {
    return m(c).getColumnLabel(at(c));
  }

  @Override
  public String getColumnName(int c) throws SQLException {
    return m(c).getColumnName(at(c));
  }

  @Override
  public String getSchemaName(int c) throws SQLException {
    return m(c).getSchemaName(at(c));
  }

  @Override
  public int getPrecision(int c) throws SQLException {
    return m(c).getPrecision(at(c));
  }

  @Override
  public int getScale(int c) throws SQLException {
    return m(c).getScale(at(c));
  }

  @Override
  public String getTableName(int c) throws SQLException {
    return m(c).getTableName(at(c));
  }

  @Override
  public String getCatalogName(int c) throws SQLException {
    return m(c).getCatalogName(at(c));
  }

  @Override
  public int getColumnType(int c) throws SQLException {
    return m(c).getColumnType(at(c));
  }

  @Override
  public String getColumnTypeName(int c) throws SQLException {
    return m(c).getColumnTypeName(at(c));
  }

  @Override
  public boolean isReadOnly(int c) throws SQLException {
    return m(c).isReadOnly(at(c));
  }

  @Override
  public boolean isWritable(int c) throws SQLException {
    return m(c).isWritable(at(c));
  }

  @Override
  public boolean isDefinitelyWritable(int c) throws SQLException {
    return m(c).isDefinitelyWritable(at(c));
  }

  @Override
  public String getColumnClassName(int c) throws SQLException {
    return m(c).getColumnClassName(at(c));
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw dev.shardex.vocabulary.ShardexError.UNSUPPORTED.exception("unwrap to " + iface.getName(), "use ResultSetMetaData");
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
