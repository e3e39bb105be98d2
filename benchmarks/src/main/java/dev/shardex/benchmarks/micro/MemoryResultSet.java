package dev.shardex.benchmarks.micro;

import dev.shardex.driver.merge.DelegatingResultSet;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import javax.sql.rowset.RowSetMetaDataImpl;

/**
 * One shard's sorted rows held in memory, so the merge is measured without a network: only what
 * the merge stage calls is implemented ({@code next}, the getters it reads, metadata, close).
 */
final class MemoryResultSet extends DelegatingResultSet {
  private final Object[][] rows;
  private final ResultSetMetaData meta;
  private int at = -1;
  private boolean closed;

  MemoryResultSet(Object[][] rows, ResultSetMetaData meta) {
    this.rows = rows;
    this.meta = meta;
  }

  static ResultSetMetaData meta(String... labels) throws SQLException {
    RowSetMetaDataImpl m = new RowSetMetaDataImpl();
    m.setColumnCount(labels.length);
    for (int i = 0; i < labels.length; i++) {
      m.setColumnLabel(i + 1, labels[i]);
      m.setColumnName(i + 1, labels[i]);
      m.setCaseSensitive(i + 1, false);
    }
    return m;
  }

  @Override
  protected ResultSet rs() throws SQLException {
    throw new SQLFeatureNotSupportedException("not needed by the merge benchmark");
  }

  @Override
  public boolean next() {
    return ++at < rows.length;
  }

  @Override
  public Object getObject(int column) {
    return rows[at][column - 1];
  }

  @Override
  public long getLong(int column) {
    return ((Number) rows[at][column - 1]).longValue();
  }

  @Override
  public ResultSetMetaData getMetaData() {
    return meta;
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }
}
