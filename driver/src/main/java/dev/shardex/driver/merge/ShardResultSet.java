package dev.shardex.driver.merge;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One shard's result set, handed to the application as is, except that {@link #getStatement()}
 * answers the logical statement and closing it releases the physical statement and connection.
 */
public final class ShardResultSet extends DelegatingResultSet {
  private final ResultSet rs;
  private final Statement owner;
  private final AutoCloseable release;
  private boolean closed;

  public ShardResultSet(ResultSet rs, Statement owner, AutoCloseable release) {
    this.rs = rs;
    this.owner = owner;
    this.release = release;
  }

  @Override
  protected ResultSet rs() {
    return rs;
  }

  @Override
  public Statement getStatement() {
    return owner;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      rs.close();
    } finally {
      Closing.close(release);
    }
  }
}
