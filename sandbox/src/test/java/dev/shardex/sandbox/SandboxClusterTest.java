package dev.shardex.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

/** A real two-shard cluster, shared by the tests of this class to keep the run short. */
@Timeout(120)
class SandboxClusterTest {

    private static SandboxCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = SandboxCluster.start("Sandbox-Test", 2);
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyServerAcceptsTheAppUserAndHasItsDatabase() throws SQLException {
        assertEquals("sandbox_test", cluster.databaseName());
        assertEquals(2, cluster.shardCount());
        Set<Integer> ports = new HashSet<>();
        for (int shard = 0; shard < 2; shard++) {
            assertTrue(cluster.shardUrl(shard).matches("jdbc:mysql://127\\.0\\.0\\.1:\\d+/sandbox_test"),
                    cluster.shardUrl(shard));
            assertTrue(cluster.isShardRunning(shard));
            ports.add(TestSupport.port(cluster.shardUrl(shard)));
            try (Connection connection = cluster.connectShard(shard)) {
                assertEquals("sandbox_test", TestSupport.scalar(connection, "SELECT DATABASE()"));
                assertTrue(TestSupport.scalar(connection, "SELECT CURRENT_USER()").startsWith("shardex@"));
                assertEquals("utf8mb4", TestSupport.scalar(connection, "SELECT @@character_set_database"));
            }
        }
        assertTrue(cluster.directoryUrl().matches("jdbc:mysql://127\\.0\\.0\\.1:\\d+/shardex_directory"));
        ports.add(TestSupport.port(cluster.directoryUrl()));
        assertEquals(3, ports.size(), "every server has its own port");
        try (Connection connection = cluster.connectDirectory()) {
            assertEquals("shardex_directory", TestSupport.scalar(connection, "SELECT DATABASE()"));
            assertEquals("0", TestSupport.scalar(connection,
                    "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'shardex_directory'"));
        }
    }

    @Test
    void aRowWrittenOnShardZeroIsNotOnShardOne() throws SQLException {
        for (int shard = 0; shard < 2; shard++) {
            try (Connection connection = cluster.connectShard(shard); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE placement (id INT PRIMARY KEY, name VARCHAR(50))");
            }
        }
        try (Connection connection = cluster.connectShard(0); Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO placement VALUES (1, 'only on shard 0')");
        }
        try (Connection zero = cluster.connectShard(0); Connection one = cluster.connectShard(1)) {
            assertEquals("1", TestSupport.scalar(zero, "SELECT COUNT(*) FROM placement"));
            assertEquals("0", TestSupport.scalar(one, "SELECT COUNT(*) FROM placement"));
        }
    }

    @Test
    void aStoppedShardRefusesConnectionsAndComesBackWithItsData() throws Exception {
        try (Connection connection = cluster.connectShard(1); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE survivor (id INT PRIMARY KEY, name VARCHAR(50))");
            statement.executeUpdate("INSERT INTO survivor VALUES (7, 'still here')");
        }
        String urlBefore = cluster.shardUrl(1);
        int port = TestSupport.port(urlBefore);
        try {
            cluster.stopShard(1);
            cluster.stopShard(1); // idempotent
            assertFalse(cluster.isShardRunning(1));
            SQLException refused = assertThrows(SQLException.class, () -> cluster.connectShard(1).close());
            assertTrue(refused.getSQLState().startsWith("08"), "SQLState " + refused.getSQLState());
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
            try (Connection zero = cluster.connectShard(0)) {
                assertEquals("1", TestSupport.scalar(zero, "SELECT 1"));
            }
        } finally {
            cluster.startShard(1);
        }
        cluster.startShard(1); // idempotent
        assertTrue(cluster.isShardRunning(1));
        assertEquals(urlBefore, cluster.shardUrl(1));
        try (Connection one = cluster.connectShard(1)) {
            assertEquals("still here", TestSupport.scalar(one, "SELECT name FROM survivor WHERE id = 7"));
        }
    }

    @Test
    void aFailedRestartNamesTheShardItsPortAndDataDir() throws IOException, SQLException {
        int port = TestSupport.port(cluster.shardUrl(0));
        cluster.stopShard(0);
        try (ServerSocket squatter = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(squatter.isBound());
            SandboxException failure = assertThrows(SandboxException.class, () -> cluster.startShard(0));
            assertTrue(failure.getMessage().contains("Address already in use"), failure.getMessage());
            assertTrue(failure.getMessage().contains("shard 0"), failure.getMessage());
            assertTrue(failure.getMessage().contains("port " + port), failure.getMessage());
            assertTrue(failure.getMessage().contains("shard-0"), failure.getMessage());
            assertFalse(failure.getMessage().contains(cluster.password()));
        } finally {
            cluster.startShard(0);
        }
        assertEquals(port, TestSupport.port(cluster.shardUrl(0)));
        try (Connection zero = cluster.connectShard(0)) {
            assertEquals("1", TestSupport.scalar(zero, "SELECT 1"));
        }
    }

    @Test
    void unknownShardsAreRejected() {
        assertThrows(IndexOutOfBoundsException.class, () -> cluster.shardUrl(2));
        assertThrows(IndexOutOfBoundsException.class, () -> cluster.stopShard(-1));
        assertNotEquals(cluster.shardUrl(0), cluster.shardUrl(1));
    }
}
