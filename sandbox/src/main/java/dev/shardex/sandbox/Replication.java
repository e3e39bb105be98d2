package dev.shardex.sandbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * MariaDB's own replication between a sandbox shard (the primary) and its replicas: GTID
 * positions, row events, the replica's IO and SQL threads. Nothing here is simulated: a replica
 * whose SQL thread is stopped really falls behind, and one whose process is stopped really refuses
 * connections.
 *
 * <p>A replica is attached before anything is written to its primary's application database, with
 * an empty GTID position, so it replays the primary's whole binary log: the application user and
 * database arrive by replication, never by a second provisioning that could disagree.
 */
final class Replication {

    /** How long start-up waits for a replica to apply what its primary wrote during provisioning. */
    private static final int CATCH_UP_SECONDS = 60;
    /** ER_HOST_NOT_PRIVILEGED. */
    private static final int HOST_REFUSED = 1130;
    private static final int ROOT_ATTEMPTS = 25;

    private Replication() {}

    /** Options of a shard that has replicas: a server id and a row-based binary log. */
    static List<String> primaryArgs(int shard) {
        return List.of("--server-id=" + serverId(shard, 0), "--log-bin=binlog", "--binlog-format=ROW");
    }

    /** Options of a shard's replica: its own server id and relay log. */
    static List<String> replicaArgs(int shard, int replica) {
        return List.of("--server-id=" + serverId(shard, replica + 1), "--relay-log=relay-bin");
    }

    /**
     * Points the replica at its primary (GTID, from the primary's first event), starts it and waits
     * until it has applied what the primary logged so far, on one connection: while the replica
     * replays the primary's account statements, a new connection to it was once refused with
     * "Host '127.0.0.1' is not allowed to connect" (seen under load in CI), so none is opened then.
     */
    static void attach(MariaDbServer replica, MariaDbServer primary, String user, String password) {
        try (Connection root = root(replica);
                PreparedStatement change = root.prepareStatement("CHANGE MASTER TO MASTER_HOST = '127.0.0.1', "
                        + "MASTER_PORT = " + primary.port() + ", MASTER_USER = ?, MASTER_PASSWORD = ?, "
                        + "MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1");
                Statement statement = root.createStatement()) {
            change.setString(1, user);
            change.setString(2, password);
            change.execute();
            statement.execute("START SLAVE");
            await(root, replica, primary);
        } catch (SQLException e) {
            throw failure(replica, "attach to " + primary.label(), e);
        }
    }

    /** Waits until the replica has applied every transaction its primary has logged so far. */
    static void awaitCaughtUp(MariaDbServer replica, MariaDbServer primary) {
        try (Connection root = root(replica)) {
            await(root, replica, primary);
        } catch (SQLException e) {
            throw failure(replica, "wait for its primary", e);
        }
    }

    private static void await(Connection replicaRoot, MariaDbServer replica, MariaDbServer primary)
            throws SQLException {
        String position;
        try (Connection root = root(primary);
                Statement statement = root.createStatement();
                ResultSet rs = statement.executeQuery("SELECT @@gtid_binlog_pos")) {
            rs.next();
            position = rs.getString(1);
        }
        try (PreparedStatement wait = replicaRoot.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
            wait.setString(1, position);
            wait.setInt(2, CATCH_UP_SECONDS);
            try (ResultSet rs = wait.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != 0) {
                    throw new SandboxException("MariaDB " + replica.label() + " did not reach its primary's position "
                            + position + " within " + CATCH_UP_SECONDS + " s: " + status(replicaRoot));
                }
            }
        }
    }

    /** Runs one replica control statement as root, e.g. {@code STOP SLAVE SQL_THREAD}. */
    static void control(MariaDbServer replica, String sql) {
        try (Connection root = root(replica); Statement statement = root.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw failure(replica, sql, e);
        }
    }

    private static String status(Connection root) throws SQLException {
        try (Statement statement = root.createStatement(); ResultSet rs = statement.executeQuery("SHOW SLAVE STATUS")) {
            if (!rs.next()) {
                return "no replication configured";
            }
            return "IO " + rs.getString("Slave_IO_Running") + " (" + rs.getString("Last_IO_Error") + "), SQL "
                    + rs.getString("Slave_SQL_Running") + " (" + rs.getString("Last_SQL_Error") + ")";
        }
    }

    private static int serverId(int shard, int member) {
        return (shard + 1) * 100 + member;
    }

    /** Root over TCP; a refusal with 1130 (the host check, while account events replay) is retried. */
    private static Connection root(MariaDbServer server) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return Jdbc.connect(Jdbc.url(server.port(), ""), "root", "");
            } catch (SQLException e) {
                if (e.getErrorCode() != HOST_REFUSED || attempt == ROOT_ATTEMPTS) {
                    throw e;
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException("Interrupted while connecting to a replica", e);
        }
    }

    private static SandboxException failure(MariaDbServer server, String action, SQLException e) {
        return new SandboxException("Cannot " + action + " on MariaDB " + server.label() + " server (port "
                + server.port() + "): " + e.getMessage(), e);
    }
}
