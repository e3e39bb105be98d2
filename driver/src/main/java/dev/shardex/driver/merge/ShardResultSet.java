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

  // Connector/J lets a NumberFormatException out of a numeric (or boolean) getter on a non-numeric string
  // ("one"); Shardex answers with an SQLDataException (22018), as for every other conversion.

  private static SQLException notANumber(RuntimeException e) {
    return new java.sql.SQLDataException("Shardex: cannot read the value as a number: " + e.getMessage(), "22018", e);
  }

  @Override
  public long getLong(int column) throws SQLException {
    try {
      return super.getLong(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public long getLong(String label) throws SQLException {
    try {
      return super.getLong(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public int getInt(int column) throws SQLException {
    try {
      return super.getInt(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public int getInt(String label) throws SQLException {
    try {
      return super.getInt(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public short getShort(int column) throws SQLException {
    try {
      return super.getShort(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public short getShort(String label) throws SQLException {
    try {
      return super.getShort(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public byte getByte(int column) throws SQLException {
    try {
      return super.getByte(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public byte getByte(String label) throws SQLException {
    try {
      return super.getByte(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public double getDouble(int column) throws SQLException {
    try {
      return super.getDouble(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public double getDouble(String label) throws SQLException {
    try {
      return super.getDouble(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public float getFloat(int column) throws SQLException {
    try {
      return super.getFloat(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public float getFloat(String label) throws SQLException {
    try {
      return super.getFloat(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public java.math.BigDecimal getBigDecimal(int column) throws SQLException {
    try {
      return super.getBigDecimal(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public java.math.BigDecimal getBigDecimal(String label) throws SQLException {
    try {
      return super.getBigDecimal(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public boolean getBoolean(int column) throws SQLException {
    try {
      return super.getBoolean(column);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }

  @Override
  public boolean getBoolean(String label) throws SQLException {
    try {
      return super.getBoolean(label);
    } catch (RuntimeException e) {
      throw notANumber(e);
    }
  }
}
