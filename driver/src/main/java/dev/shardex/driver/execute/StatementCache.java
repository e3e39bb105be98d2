package dev.shardex.driver.execute;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Physical statements kept per pooled connection, so a statement run again on a connection does
 * not build a new Connector/J statement (whose constructor reads some 40 connection properties):
 * prepared statements by SQL text (and whether they return generated keys), plus one plain
 * statement per connection.
 *
 * <p>They are made on the unwrapped Connector/J connection, so HikariCP neither wraps them nor
 * closes them when the connection goes back to its pool; Connector/J closes them when the
 * physical connection closes (evicted, retired), and that connection's entry here is swept when
 * the next new connection is seen. A statement is lent to one execution at a time: if the same
 * text is already in use on the connection (two open result sets of one statement in a
 * transaction), the second execution gets a statement of its own, closed after use.
 */
public final class StatementCache {
  /** Prepared statements kept per connection (least recently used go first). */
  static final int PER_CONNECTION = 256;

  private final Map<Connection, Statements> byConnection = new ConcurrentHashMap<>();

  /** A statement lent to one execution; {@code give} returns it. */
  public static final class Slot {
    final Statement statement;
    final Statements owner;
    boolean busy;
    boolean dropped;

    Slot(Statement statement, Statements owner) {
      this.statement = statement;
      this.owner = owner;
    }

    public Statement statement() {
      return statement;
    }
  }

  /** The statements of one physical connection. */
  static final class Statements {
    private final Connection physical;
    private final LinkedHashMap<String, Slot> prepared = lru();
    private final LinkedHashMap<String, Slot> preparedWithKeys = lru();
    private Slot plain;

    Statements(Connection physical) {
      this.physical = physical;
    }

    @SuppressWarnings("NonApiType") // its access order is the point: the eldest entry is the least recently used
    private static LinkedHashMap<String, Slot> lru() {
      return new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Slot> eldest) {
          if (size() <= PER_CONNECTION) {
            return false;
          }
          eldest.getValue().dropped = true;
          if (!eldest.getValue().busy) {
            closeQuietly(eldest.getValue().statement);
          }
          return true;
        }
      };
    }

    synchronized Slot prepare(String sql, boolean keys) throws SQLException {
      LinkedHashMap<String, Slot> map = keys ? preparedWithKeys : prepared;
      Slot s = map.get(sql);
      if (s != null && !s.busy && !s.statement.isClosed()) {
        s.busy = true;
        return s;
      }
      PreparedStatement ps = keys ? physical.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)
          : physical.prepareStatement(sql);
      Slot fresh = new Slot(ps, this);
      fresh.busy = true;
      if (s == null || s.statement.isClosed()) {
        map.put(sql, fresh); // else the cached one is busy: this one is used once, then closed
      } else {
        fresh.dropped = true;
      }
      return fresh;
    }

    /** A prepared statement used once and then closed (its text is not worth keeping). */
    synchronized Slot once(String sql, boolean keys) throws SQLException {
      PreparedStatement ps = keys ? physical.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)
          : physical.prepareStatement(sql);
      Slot fresh = new Slot(ps, this);
      fresh.busy = true;
      fresh.dropped = true;
      return fresh;
    }

    synchronized Slot plain() throws SQLException {
      Slot s = plain;
      if (s != null && !s.busy && !s.statement.isClosed()) {
        s.busy = true;
        return s;
      }
      Slot fresh = new Slot(physical.createStatement(), this);
      fresh.busy = true;
      if (s == null || s.statement.isClosed()) {
        plain = fresh;
      } else {
        fresh.dropped = true;
      }
      return fresh;
    }

    synchronized void give(Slot s, boolean keep) {
      s.busy = false;
      if (s.dropped || !keep) {
        s.dropped = true;
        closeQuietly(s.statement);
      }
    }
  }

  /** The statements of the connection a pooled connection wraps. */
  Statements of(Connection pooled) throws SQLException {
    Connection physical = pooled.unwrap(Connection.class);
    Statements s = byConnection.get(physical);
    if (s == null) {
      byConnection.keySet().removeIf(StatementCache::closed); // connections the pools have let go
      s = byConnection.computeIfAbsent(physical, Statements::new);
    }
    return s;
  }

  /** Forgets a connection's statements (it is being evicted; closing it closes them). */
  void forget(Connection pooled) {
    try {
      if (!pooled.isClosed()) { // a closed HikariCP proxy no longer knows its connection
        byConnection.remove(pooled.unwrap(Connection.class));
      }
    } catch (SQLException e) {
      // not a Connector/J connection: nothing was kept for it
    }
  }

  /** How many connections have statements kept (for tests). */
  public int connections() {
    return byConnection.size();
  }

  private static boolean closed(Connection c) {
    try {
      return c.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  private static void closeQuietly(Statement s) {
    try {
      s.close();
    } catch (SQLException ignored) {
      // the connection is gone: so is the statement
    }
  }
}
