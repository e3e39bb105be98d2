package dev.shardex.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/** Real MariaDB replication between a sandbox shard and its replica. */
@Timeout(180)
class SandboxReplicationTest {

    private static SandboxCluster cluster;

    @BeforeAll
    static void startCluster() throws SQLException {
        cluster = SandboxCluster.start("Replication-Test", 2, 1);
        for (int shard = 0; shard < 2; shard++) {
            try (Connection primary = cluster.connectShard(shard); Statement statement = primary.createStatement()) {
                statement.execute("CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(20))");
            }
        }
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void replicaHasTheAppUserTheDatabaseAndEveryCommittedRow() throws SQLException {
        assertEquals(1, cluster.replicaCount());
        write(1, 10, "first");
        SandboxReplica replica = cluster.replica(1, 0);
        replica.awaitCaughtUp();
        try (Connection connection = replica.connect()) {
            assertEquals("replication_test", TestSupport.scalar(connection, "SELECT DATABASE()"));
            assertEquals("first", TestSupport.scalar(connection, "SELECT body FROM notes WHERE id = 10"));
            try (Connection primary = cluster.connectShard(1)) {
                assertFalse(TestSupport.scalar(connection, "SELECT @@server_id")
                        .equals(TestSupport.scalar(primary, "SELECT @@server_id")), "a replica has its own server id");
            }
        }
        assertFalse(replica.url().equals(cluster.shardUrl(1)), replica.url());
    }

    @Test
    void aPausedReplicaLagsUntilResumed() throws SQLException {
        SandboxReplica replica = cluster.replica(0, 0);
        replica.awaitCaughtUp();
        replica.pauseReplication();
        try {
            write(0, 20, "while paused");
            try (Connection connection = replica.connect()) {
                assertEquals("0", TestSupport.scalar(connection, "SELECT COUNT(*) FROM notes WHERE id = 20"));
            }
        } finally {
            replica.resumeReplication();
        }
        replica.awaitCaughtUp();
        try (Connection connection = replica.connect()) {
            assertEquals("while paused", TestSupport.scalar(connection, "SELECT body FROM notes WHERE id = 20"));
        }
    }

    @Test
    void aStoppedReplicaRefusesConnectionsAndCatchesUpWhenRestarted() throws SQLException {
        SandboxReplica replica = cluster.replica(0, 0);
        replica.stop();
        assertFalse(replica.isRunning());
        assertThrows(SQLException.class, replica::connect);
        write(0, 30, "while stopped");
        replica.start();
        replica.awaitCaughtUp();
        try (Connection connection = replica.connect()) {
            assertEquals("while stopped", TestSupport.scalar(connection, "SELECT body FROM notes WHERE id = 30"));
        }
    }

    @Test
    void describeSharedListsTheReplicasPerShard() {
        Map<String, String> description = SandboxCluster.describeShared("Replication-Shared", 2, 1);
        String[] perShard = description.get("replicaUrls").split(";");
        assertEquals(2, perShard.length);
        assertTrue(perShard[0].matches("jdbc:mysql://127\\.0\\.0\\.1:\\d+/replication_shared"), perShard[0]);
        assertThrows(IllegalArgumentException.class, () -> SandboxCluster.shared("Replication-Shared", 2, 0));
        SandboxCluster.shared("Replication-Shared", 2, 1).close();
    }

    private static void write(int shard, int id, String body) throws SQLException {
        try (Connection primary = cluster.connectShard(shard); Statement statement = primary.createStatement()) {
            statement.execute("INSERT INTO notes VALUES (" + id + ", '" + body + "')");
        }
    }
}
