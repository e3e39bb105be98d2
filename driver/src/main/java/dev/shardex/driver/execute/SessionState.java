package dev.shardex.driver.execute;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The session a logical connection has asked for, replayed on every physical connection it uses.
 * Only what differs from a pooled connection's defaults is replayed, so the common case costs no
 * round trip. SET statements make the session "sticky" (see {@link ShardSession}).
 */
public final class SessionState {
  boolean autoCommit = true;
  Integer isolation;
  boolean readOnly;
  String catalog;
  int networkTimeout;
  java.util.concurrent.Executor networkTimeoutExecutor;
  final List<String> sets = new ArrayList<>();

  public boolean autoCommit() {
    return autoCommit;
  }

  public Integer isolation() {
    return isolation;
  }

  public boolean readOnly() {
    return readOnly;
  }

  public String catalog() {
    return catalog;
  }

  /** Milliseconds a shard connection waits for the database (Connection.setNetworkTimeout); 0 for none. */
  public int networkTimeout() {
    return networkTimeout;
  }

  boolean sticky() {
    return !sets.isEmpty();
  }

  /** Replays the session; under XA the connection stays in autocommit (XA START opens the branch). */
  void applyTo(Connection c, boolean xa) throws SQLException {
    if (!autoCommit && !xa) {
      c.setAutoCommit(false);
    }
    if (isolation != null) {
      c.setTransactionIsolation(isolation);
    }
    if (readOnly) {
      c.setReadOnly(true);
    }
    if (catalog != null) {
      c.setCatalog(catalog);
    }
    applyNetworkTimeout(c);
    if (!sets.isEmpty()) {
      try (Statement s = c.createStatement()) {
        for (String set : sets) {
          s.execute(set);
        }
      }
    }
  }

  void applyNetworkTimeout(Connection c) throws SQLException {
    if (networkTimeout > 0) {
      c.setNetworkTimeout(networkTimeoutExecutor, networkTimeout);
    }
  }
}
