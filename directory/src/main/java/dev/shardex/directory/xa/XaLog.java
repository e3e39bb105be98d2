package dev.shardex.directory.xa;

import dev.shardex.directory.DirectoryStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The XA decision log: a cross-shard transaction is committed the moment its COMMIT decision row
 * is written here (after every branch prepared). Recovery commits prepared branches that have a
 * decision and rolls back those that have none (presumed abort), once their coordinator is gone.
 */
public final class XaLog {
  private final DirectoryStore store;

  public XaLog(DirectoryStore store) {
    this.store = store;
  }

  public void decideCommit(String gtrid, String clientId, List<Integer> shards) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO xa_decisions (gtrid, client_id, shards) VALUES (?, ?, ?)")) {
        ps.setString(1, gtrid);
        ps.setString(2, clientId);
        ps.setString(3, shards.toString());
        ps.executeUpdate();
      }
      return null;
    });
  }

  public boolean committed(String gtrid) throws SQLException {
    return !store.query("SELECT 1 FROM xa_decisions WHERE gtrid = ?", ps -> ps.setString(1, gtrid), rs -> 1).isEmpty();
  }

  public void forget(String gtrid) throws SQLException {
    store.inTransaction(c -> {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM xa_decisions WHERE gtrid = ?")) {
        ps.setString(1, gtrid);
        ps.executeUpdate();
      }
      return null;
    });
  }

  public List<String> decisions() throws SQLException {
    return store.query("SELECT gtrid FROM xa_decisions ORDER BY decided_at", ps -> { }, rs -> rs.getString(1));
  }

  /** Client ids whose heartbeat is fresh by the directory's clock: their transactions may still be running. */
  public Set<String> liveClients(long staleAfterMs) throws SQLException {
    return new HashSet<>(store.query(
        "SELECT id FROM clients WHERE heartbeat_at > NOW(6) - INTERVAL ? * 1000 MICROSECOND",
        ps -> ps.setLong(1, staleAfterMs), (ResultSet rs) -> rs.getString(1)));
  }
}
