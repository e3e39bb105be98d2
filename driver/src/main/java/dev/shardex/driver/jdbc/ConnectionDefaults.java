package dev.shardex.driver.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;

/**
 * The parts of a logical connection that never reach a shard: the overloads that only check their
 * options (forward-only, read-only cursors) and call the plain forms, MySQL's fixed answers
 * (holdability, type map, client info, no schemas), and large objects, which are made here and
 * bound as values on whichever shard the statement goes to.
 */
public abstract class ConnectionDefaults extends UnsupportedConnection {

  @Override
  public Statement createStatement(int type, int concurrency) throws SQLException {
    checkForwardReadOnly(type, concurrency);
    return createStatement();
  }

  @Override
  public Statement createStatement(int type, int concurrency, int holdability) throws SQLException {
    return createStatement(type, concurrency);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
    return prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
    return prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int type, int concurrency) throws SQLException {
    checkForwardReadOnly(type, concurrency);
    return prepareStatement(sql);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability) throws SQLException {
    return prepareStatement(sql, type, concurrency);
  }

  static void checkForwardReadOnly(int type, int concurrency) throws SQLException {
    if (type != ResultSet.TYPE_FORWARD_ONLY || concurrency != ResultSet.CONCUR_READ_ONLY) {
      throw Jdbc.unsupported("scrollable or updatable result sets");
    }
  }

  @Override
  public String nativeSQL(String sql) {
    return sql;
  }

  @Override
  public void setSchema(String schema) {
    // MySQL has catalogs (databases), not schemas; Connector/J ignores this too
  }

  @Override
  public String getSchema() {
    return null;
  }

  @Override
  public java.sql.Clob createClob() throws SQLException {
    Jdbc.checkOpen(isClosed(), "connection");
    return new LocalClob();
  }

  @Override
  public java.sql.NClob createNClob() throws SQLException {
    Jdbc.checkOpen(isClosed(), "connection");
    return new LocalClob();
  }

  @Override
  public java.sql.Blob createBlob() throws SQLException {
    Jdbc.checkOpen(isClosed(), "connection");
    return new LocalBlob();
  }

  @Override
  public SQLWarning getWarnings() {
    return null;
  }

  @Override
  public void clearWarnings() {
    // none kept
  }

  @Override
  public int getHoldability() {
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public void setHoldability(int holdability) {
    // MySQL holds cursors over commit
  }

  @Override
  public Map<String, Class<?>> getTypeMap() {
    return new java.util.HashMap<>();
  }

  @Override
  public void setTypeMap(Map<String, Class<?>> map) {
    // no user-defined types in MySQL
  }

  @Override
  public Properties getClientInfo() {
    return new Properties();
  }

  @Override
  public String getClientInfo(String name) {
    return null;
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
