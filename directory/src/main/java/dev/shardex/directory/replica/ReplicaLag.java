package dev.shardex.directory.replica;

import dev.shardex.vocabulary.ErrorKind;
import dev.shardex.vocabulary.MysqlError;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A replica's lag behind its primary, from the heartbeat row ({@link #beat}) and the replica's
 * applied GTID position; see the package essay for why unknown is never zero.
 */
public final class ReplicaLag {
  /** What a measurement found; {@code lagMs} is -1 unless the state says the lag is known. */
  public record Lag(State state, long lagMs, String detail) {
    public boolean known() {
      return state == State.CAUGHT_UP || state == State.BEHIND;
    }

    /** Whether a read may go to the replica under the bound {@code maxLagMs}. */
    public boolean within(long maxLagMs) {
      return known() && lagMs <= maxLagMs;
    }

    public static Lag unknown(State state, String detail) {
      return new Lag(state, -1, detail);
    }

    @Override
    public String toString() {
      return known() ? lagMs + " ms" : state.name().toLowerCase(java.util.Locale.ROOT) + " (" + detail + ")";
    }
  }

  /** Caught up and behind have a known lag; every other state is unhealthy. */
  public enum State {
    CAUGHT_UP,
    BEHIND,
    STOPPED,
    NO_HEARTBEAT,
    UNREACHABLE
  }

  static final String DDL_DATABASE = "CREATE DATABASE IF NOT EXISTS shardex";
  static final String DDL_TABLE = "CREATE TABLE IF NOT EXISTS shardex.heartbeat "
      + "(shard_id INT NOT NULL PRIMARY KEY, ts_ms BIGINT NOT NULL) ENGINE=InnoDB";
  static final String BEAT = "REPLACE INTO shardex.heartbeat (shard_id, ts_ms) VALUES (?, ROUND(UNIX_TIMESTAMP(NOW(6)) * 1000))";

  private ReplicaLag() {}

  /** Writes (creating it on first use) the shard's heartbeat row on its primary, in autocommit. */
  public static void beat(Connection primary, int shardId) throws SQLException {
    try {
      write(primary, shardId);
    } catch (SQLException e) {
      if (!missing(e)) { // no such table or database: create them, once
        throw e;
      }
      try (Statement s = primary.createStatement()) {
        s.execute(DDL_DATABASE);
        s.execute(DDL_TABLE);
      }
      write(primary, shardId);
    }
  }

  private static void write(Connection primary, int shardId) throws SQLException {
    try (PreparedStatement ps = primary.prepareStatement(BEAT)) {
      ps.setInt(1, shardId);
      ps.executeUpdate();
    }
  }

  /**
   * Measures the replica's lag: caught up when its applied position covers the primary's, else the
   * primary's clock minus the heartbeat the replica holds; unknown when replication is stopped or
   * absent, or no heartbeat has arrived. Errors of either connection propagate to the caller, whose
   * verdict for them is {@link State#UNREACHABLE}.
   */
  public static Lag measure(Connection primary, Connection replica, int shardId) throws SQLException {
    String position;
    long nowMs;
    try (Statement s = primary.createStatement();
        ResultSet rs = s.executeQuery("SELECT @@gtid_binlog_pos, ROUND(UNIX_TIMESTAMP(NOW(6)) * 1000)")) {
      rs.next();
      position = rs.getString(1);
      nowMs = rs.getLong(2);
    }
    String stopped = threadsStopped(replica);
    if (stopped != null) {
      return Lag.unknown(State.STOPPED, stopped);
    }
    if (covers(replica, position)) {
      return new Lag(State.CAUGHT_UP, 0, "at " + position);
    }
    Long beat = heartbeat(replica, shardId);
    if (beat == null) {
      return Lag.unknown(State.NO_HEARTBEAT, "no heartbeat row of shard " + shardId + " on the replica yet");
    }
    return new Lag(State.BEHIND, Math.max(0, nowMs - beat), "primary at " + position);
  }

  /** Null when both replication threads run; else which is not running (no replication at all included). */
  private static String threadsStopped(Connection replica) throws SQLException {
    try (Statement s = replica.createStatement(); ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
      if (!rs.next()) {
        return "the server is not replicating from any primary";
      }
      String io = rs.getString("Slave_IO_Running");
      String sql = rs.getString("Slave_SQL_Running");
      if (!"Yes".equalsIgnoreCase(sql)) {
        return "its SQL thread is not running";
      }
      return "Yes".equalsIgnoreCase(io) ? null : "its I/O thread is not running (" + io + ")";
    }
  }

  /** The primary's binlog position now ({@code @@gtid_binlog_pos}), for {@link #covers} later. */
  public static String position(Connection primary) throws SQLException {
    try (Statement s = primary.createStatement(); ResultSet rs = s.executeQuery("SELECT @@gtid_binlog_pos")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** MASTER_GTID_WAIT with a zero timeout: 0 when the replica has applied every listed domain's position. */
  public static boolean covers(Connection replica, String position) throws SQLException {
    try (PreparedStatement ps = replica.prepareStatement("SELECT MASTER_GTID_WAIT(?, 0)")) {
      ps.setString(1, position);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) == 0;
      }
    }
  }

  private static boolean missing(SQLException e) {
    MysqlError error = ErrorKind.server(e);
    return error == MysqlError.NO_SUCH_TABLE || error == MysqlError.UNKNOWN_DATABASE;
  }

  private static Long heartbeat(Connection replica, int shardId) throws SQLException {
    try (PreparedStatement ps = replica.prepareStatement("SELECT ts_ms FROM shardex.heartbeat WHERE shard_id = ?")) {
      ps.setInt(1, shardId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : null;
      }
    } catch (SQLException e) {
      if (missing(e)) {
        return null;
      }
      throw e;
    }
  }
}
