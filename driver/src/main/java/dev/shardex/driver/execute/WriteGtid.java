package dev.shardex.driver.execute;

import com.mysql.cj.MysqlConnection;
import com.mysql.cj.protocol.ServerSessionStateController;
import com.zaxxer.hikari.HikariConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The GTID a write committed, read from the OK packet that answered it: no round trip. The primary
 * pools of a cluster whose connections read replicas (and want to read their own writes) ask the
 * server to report {@code last_gtid} in every OK packet whose commit changed it
 * ({@code session_track_system_variables}) and Connector/J to parse those reports
 * ({@code trackSessionState}); other clusters' pools are left as they are.
 *
 * <p>Why this is exact: Connector/J replaces the connection's session-state changes with those of
 * each OK packet it reads, so what is there after a write is that write's report, or nothing when the
 * write committed nothing (no row changed: no GTID, and nothing to wait for) or when it was not the
 * last statement on the connection. Nothing older can be left there: a report names the session's
 * newest commit.
 */
final class WriteGtid {
  private WriteGtid() {}

  /** Makes a primary pool's connections report each commit's GTID. */
  static void track(HikariConfig config) {
    config.addDataSourceProperty("trackSessionState", "true");
    config.addDataSourceProperty("sessionVariables", "session_track_system_variables='last_gtid'");
  }

  /** The GTID the connection's last statement committed, or null (none, or not reported). */
  static String last(Connection pooled) {
    try {
      ServerSessionStateController.ServerSessionStateChanges changes =
          pooled.unwrap(MysqlConnection.class).getServerSessionStateController().getSessionStateChanges();
      if (changes == null || changes.getSessionStateChangesList() == null) {
        return null;
      }
      for (ServerSessionStateController.SessionStateChange change : changes.getSessionStateChangesList()) {
        List<String> values = change.getValues();
        if (change.getType() == ServerSessionStateController.SESSION_TRACK_SYSTEM_VARIABLES && values.size() >= 2
            && "last_gtid".equalsIgnoreCase(values.get(0))) {
          return valid(values.get(1)) ? values.get(1) : null;
        }
      }
      return null;
    } catch (SQLException | RuntimeException e) {
      return null; // not a Connector/J connection, or closed: the write's time still counts (see ReplicaReads)
    }
  }

  /** A MariaDB GTID position: domain-server-sequence triples, comma-separated (so it can be quoted as it is). */
  static boolean valid(String position) {
    if (position == null || position.isEmpty()) {
      return false;
    }
    for (int i = 0; i < position.length(); i++) {
      char ch = position.charAt(i);
      if (!(ch >= '0' && ch <= '9') && ch != '-' && ch != ',') {
        return false;
      }
    }
    return true;
  }
}
