package dev.shardex.driver.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A logical statement's settings (fetch size, row limit, query timeout, ...) and the JDBC answers
 * that never change (forward-only, read-only cursors held over commit). The settings are applied
 * to every physical statement an execution uses, on every shard.
 */
public abstract class StatementOptions extends UnsupportedStatement {
  private int fetchSize;
  private int maxRows;
  private int queryTimeout;
  private boolean closeOnCompletion;

  /** Physical statements are reused: sets on one what differs from these settings. */
  protected final void applyTo(Statement s) throws SQLException {
    if (s.getFetchSize() != fetchSize) {
      s.setFetchSize(fetchSize);
    }
    if (s.getMaxRows() != maxRows) {
      s.setMaxRows(maxRows);
    }
    if (s.getQueryTimeout() != queryTimeout) {
      s.setQueryTimeout(queryTimeout);
    }
  }

  @Override
  public void setFetchSize(int rows) {
    fetchSize = rows;
  }

  @Override
  public int getFetchSize() {
    return fetchSize;
  }

  @Override
  public void setMaxRows(int max) {
    maxRows = max;
  }

  @Override
  public int getMaxRows() {
    return maxRows;
  }

  @Override
  public void setQueryTimeout(int seconds) {
    queryTimeout = seconds;
  }

  @Override
  public int getQueryTimeout() {
    return queryTimeout;
  }

  @Override
  public void setEscapeProcessing(boolean enable) {
    // MySQL escape processing happens in Connector/J on the shard's statement
  }

  @Override
  public void clearWarnings() {
    // warnings stay on the shard's statement
  }

  @Override
  public int getResultSetType() {
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public int getResultSetConcurrency() {
    return ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public int getResultSetHoldability() {
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public int getFetchDirection() {
    return ResultSet.FETCH_FORWARD;
  }

  @Override
  public void setFetchDirection(int direction) {
    // forward only
  }

  @Override
  public int getMaxFieldSize() {
    return 0;
  }

  @Override
  public void setMaxFieldSize(int max) {
    // no limit
  }

  @Override
  public void setPoolable(boolean poolable) {
    // logical statements are cheap; nothing to pool
  }

  @Override
  public boolean isPoolable() {
    return false;
  }

  @Override
  public void closeOnCompletion() {
    closeOnCompletion = true;
  }

  @Override
  public boolean isCloseOnCompletion() {
    return closeOnCompletion;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return dev.shardex.driver.merge.Wrappers.unwrap(this, iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return dev.shardex.driver.merge.Wrappers.isWrapperFor(this, iface);
  }
}
