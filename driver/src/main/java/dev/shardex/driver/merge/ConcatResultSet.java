package dev.shardex.driver.merge;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Several shards' rows, one shard after the other: exact for a SELECT with no ORDER BY, LIMIT,
 * DISTINCT, GROUP BY or aggregate (the router sends anything else to the merge or rejects it).
 * Forward-only; each shard's connection is released as soon as its rows are read.
 */
public final class ConcatResultSet extends DelegatingResultSet {
  private final List<ShardResultSet> parts;
  private final Statement owner;
  private int current;
  private boolean closed;

  public ConcatResultSet(List<ShardResultSet> parts, Statement owner) {
    this.parts = parts;
    this.owner = owner;
  }

  @Override
  protected ResultSet rs() {
    return parts.get(Math.min(current, parts.size() - 1));
  }

  @Override
  public boolean next() throws SQLException {
    while (current < parts.size()) {
      if (parts.get(current).next()) {
        return true;
      }
      parts.get(current).close();
      current++;
    }
    return false;
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    return parts.get(0).getMetaData();
  }

  @Override
  public int getType() {
    return ResultSet.TYPE_FORWARD_ONLY;
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
    if (!closed) {
      closed = true;
      Closing.closeAll(parts);
    }
  }
}
