package dev.shardex.directory.client;

import dev.shardex.directory.Redact;
import dev.shardex.vocabulary.ShardexError;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Where the directory pool's physical connections come from: first the connection the driver
 * opened to check the login (so a fresh driver does not open, close and reopen its first
 * directory connection: one handshake, authentication and session set-up fewer), then new ones
 * from the JDBC driver for the URL, with the same user and password. HikariCP pools them as usual.
 */
public final class DirectoryConnections implements DataSource {
  private final String url;
  private final Properties login;
  private final AtomicReference<Connection> first;
  private volatile Driver driver;
  private volatile int loginTimeoutS = 5;

  public DirectoryConnections(String url, String user, String password, Connection first) {
    this.url = url;
    this.login = new Properties();
    if (user != null) {
      login.setProperty("user", user);
    }
    if (password != null) {
      login.setProperty("password", password);
    }
    login.setProperty("useLocalSessionState", "true"); // as the login connection: no round trips for HikariCP's state checks
    this.first = new AtomicReference<>(first);
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection c = first.getAndSet(null);
    if (c != null) {
      if (!c.isClosed()) {
        c.setNetworkTimeout(DIRECT, 0); // the login's read timeout does not outlive the login
        return c;
      }
    }
    Driver d = driver;
    if (d == null) {
      driver = d = DriverManager.getDriver(url);
    }
    Connection fresh = d.connect(url, login);
    if (fresh == null) {
      throw ShardexError.BAD_URL.exception("no JDBC driver accepts " + Redact.url(url));
    }
    return fresh;
  }

  /** Closes the login connection if the pool never took it (the directory did not open). */
  public void discardUnused() {
    Connection c = first.getAndSet(null);
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // it was only the login check's connection
      }
    }
  }

  private static final Executor DIRECT = new Executor() {
    @Override
    public void execute(Runnable command) {
      command.run();
    }
  };

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw ShardexError.JDBC_UNSUPPORTED.featureNotSupported("getConnection(user, password) on the directory pool", "its credentials are fixed");
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    // nothing to log
  }

  /** HikariCP sets it from its connection timeout; it bounds each new connection's connect phase. */
  @Override
  public void setLoginTimeout(int seconds) {
    loginTimeoutS = seconds;
    if (seconds > 0) {
      login.setProperty("connectTimeout", Integer.toString(seconds * 1000));
    }
  }

  @Override
  public int getLoginTimeout() {
    return loginTimeoutS;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw ShardexError.JDBC_UNSUPPORTED.featureNotSupported("getParentLogger", "the directory pool logs through SLF4J");
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw ShardexError.NOT_A_WRAPPER.exception(iface.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
