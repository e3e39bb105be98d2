package dev.shardex.directory.client;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.DirectoryStore.ClientState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * The clients table in the directory database: every live driver instance, its heartbeat (by the
 * directory's clock) and the last change it applied. Movers wait on it for acknowledgements; a client
 * whose heartbeat is older than its lease refuses writes on its own, so it is not waited for.
 */
public final class ClientStore {
  private final DirectoryStore store;

  public ClientStore(DirectoryStore store) {
    this.store = store;
  }

  /** One statement in autocommit (atomic by itself): a driver's start-up pays one round trip for it, not four. */
  public void registerClient(String clientId, String info, long appliedChange) throws SQLException {
    store.autocommit(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO clients (id, info, applied_change) VALUES (?, ?, ?) "
              + "ON DUPLICATE KEY UPDATE heartbeat_at = CURRENT_TIMESTAMP(6), applied_change = VALUES(applied_change)")) {
        ps.setString(1, clientId);
        ps.setString(2, info);
        ps.setLong(3, appliedChange);
        ps.executeUpdate();
      }
      return null;
    });
  }

  /** Records that a client has applied every change up to {@code appliedChange}, by the directory's clock. */
  public void heartbeat(Connection c, String clientId, long appliedChange) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "UPDATE clients SET heartbeat_at = CURRENT_TIMESTAMP(6), applied_change = ? WHERE id = ?")) {
      ps.setLong(1, appliedChange);
      ps.setString(2, clientId);
      ps.executeUpdate();
    }
  }

  public void removeClient(String clientId) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM clients WHERE id = ?")) {
        ps.setString(1, clientId);
        ps.executeUpdate();
      }
      return null;
    });
  }

  /**
   * Live clients that have not applied {@code change} yet. A client whose heartbeat is older than
   * {@code staleAfterMs} by the directory's clock has lost its lease (it refuses writes on its own)
   * and is not listed: waiting for it would wait forever.
   */
  public List<ClientState> clientsBehind(long change, long staleAfterMs) throws SQLException {
    return store.query("SELECT id, info, applied_change, TIMESTAMPDIFF(MICROSECOND, heartbeat_at, NOW(6)) DIV 1000 FROM clients "
        + "WHERE applied_change < ? AND heartbeat_at >= NOW(6) - INTERVAL ? MICROSECOND ORDER BY id", ps -> {
          ps.setLong(1, change);
          ps.setLong(2, staleAfterMs * 1000);
        }, rs -> new ClientState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
  }

  public List<ClientState> clients() throws SQLException {
    return store.query("SELECT id, info, applied_change, TIMESTAMPDIFF(MICROSECOND, heartbeat_at, NOW(6)) DIV 1000 FROM clients "
        + "ORDER BY id", ps -> {}, rs -> new ClientState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
  }
}
