package dev.shardex.sandbox;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One replica server of a sandbox shard, fed by MariaDB's GTID replication from the shard. Its
 * failures are real: {@link #stop()} ends the process, {@link #pauseReplication()} stops the SQL
 * thread so that the replica falls behind while still receiving its primary's events.
 */
public final class SandboxReplica {

    private final MariaDbServer server;
    private final MariaDbServer primary;
    private final Runnable ensureOpen;
    private final String database;
    private final String user;
    private final String password;

    SandboxReplica(MariaDbServer server, MariaDbServer primary, Runnable ensureOpen, String database, String user,
            String password) {
        this.server = server;
        this.primary = primary;
        this.ensureOpen = ensureOpen;
        this.database = database;
        this.user = user;
        this.password = password;
    }

    public String url() {
        return Jdbc.url(server.port(), database);
    }

    /** A direct Connector/J connection to the replica, as the application user. */
    public Connection connect() throws SQLException {
        return Jdbc.connect(url(), user, password);
    }

    /** Stops the replica's mariadbd process: its port then refuses connections. Idempotent. */
    public void stop() {
        ensureOpen.run();
        server.stop();
    }

    /** Restarts a stopped replica; it reconnects to its primary and catches up by itself. */
    public void start() {
        ensureOpen.run();
        server.start();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /** Stops the SQL thread: events still arrive but none is applied, so the replica lags for real. */
    public void pauseReplication() {
        ensureOpen.run();
        Replication.control(server, "STOP SLAVE SQL_THREAD");
    }

    public void resumeReplication() {
        ensureOpen.run();
        Replication.control(server, "START SLAVE SQL_THREAD");
    }

    /**
     * Delays the replica's replay by {@code seconds} (MariaDB's MASTER_DELAY; 0 removes it): it lags by
     * that much for real, with both replication threads running, so its lag is known.
     */
    public void delay(int seconds) {
        ensureOpen.run();
        Replication.control(server, "STOP SLAVE");
        Replication.control(server, "CHANGE MASTER TO MASTER_DELAY = " + seconds);
        Replication.control(server, "START SLAVE");
    }

    /** Waits until the replica has applied everything its shard has logged so far. */
    public void awaitCaughtUp() {
        ensureOpen.run();
        Replication.awaitCaughtUp(server, primary);
    }

    @Override
    public String toString() {
        return "SandboxReplica[" + server.label() + ", " + url() + "]";
    }
}
