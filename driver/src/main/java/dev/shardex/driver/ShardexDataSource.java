package dev.shardex.driver;

import dev.shardex.driver.cluster.ShardexProperty;
import dev.shardex.vocabulary.ShardexError;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A DataSource for frameworks that want one. It connects through {@link ShardexDriver}, so there is
 * one way to connect; every {@link ShardexProperty} can be set with {@link #setProperty}.
 * Pooling the logical connections is left to the application's pool (e.g. HikariCP).
 */
public class ShardexDataSource implements DataSource {
  private final Properties properties = new Properties();
  private String url;
  private int loginTimeout;

  public void setUrl(String url) {
    this.url = url;
  }

  public String getUrl() {
    return url;
  }

  public void setUser(String user) {
    properties.setProperty("user", user);
  }

  public void setPassword(String password) {
    properties.setProperty("password", password);
  }

  public void setProperty(ShardexProperty option, String value) {
    properties.setProperty(option.key(), value);
  }

  public void setProperty(String name, String value) {
    properties.setProperty(name, value);
  }

  @Override
  public Connection getConnection() throws SQLException {
    return getConnection(null, null);
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    Properties p = new Properties();
    p.putAll(properties);
    if (user != null) {
      p.setProperty("user", user);
    }
    if (password != null) {
      p.setProperty("password", password);
    }
    if (url == null) {
      throw dev.shardex.vocabulary.ShardexError.BAD_URL.exception("ShardexDataSource has no URL: call setUrl(\"jdbc:shardex:...\")");
    }
    Connection c = new ShardexDriver().connect(url, p);
    if (c == null) {
      throw dev.shardex.vocabulary.ShardexError.BAD_URL.exception("'" + dev.shardex.directory.Redact.url(url) + "' is not a jdbc:shardex: URL");
    }
    return c;
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    // Shardex logs through SLF4J
  }

  @Override
  public void setLoginTimeout(int seconds) {
    loginTimeout = seconds;
  }

  @Override
  public int getLoginTimeout() {
    return loginTimeout;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw ShardexError.JDBC_UNSUPPORTED.featureNotSupported("getParentLogger", "Shardex logs through SLF4J");
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
