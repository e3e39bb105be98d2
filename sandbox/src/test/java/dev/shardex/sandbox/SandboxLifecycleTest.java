package dev.shardex.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;

/** Shared-cluster registry, close() and name handling: one-shard clusters to stay quick. */
@Timeout(120)
class SandboxLifecycleTest {

    @Test
    void sharedReturnsTheSameClusterAndRejectsAnotherShardCount() throws Exception {
        SandboxCluster shared = SandboxCluster.shared("lifecycle-shared", 1);
        try {
            assertSame(shared, SandboxCluster.shared("lifecycle-shared", 1));
            IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class,
                    () -> SandboxCluster.shared("lifecycle-shared", 3));
            assertTrue(mismatch.getMessage().contains("lifecycle-shared"), mismatch.getMessage());
            assertTrue(mismatch.getMessage().contains("1 shards"), mismatch.getMessage());

            Map<String, String> description = SandboxCluster.describeShared("lifecycle-shared", 1);
            assertEquals(shared.directoryUrl(), description.get("directoryUrl"));
            assertEquals(shared.shardUrl(0), description.get("shardUrls"));
            assertEquals("shardex", description.get("user"));
            assertEquals(shared.password(), description.get("password"));
            // What the driver does with it: plain URL parameters, no extra connection options.
            String url = description.get("shardUrls") + "?user=" + description.get("user")
                    + "&password=" + description.get("password");
            try (Connection connection = DriverManager.getConnection(url)) {
                assertEquals("lifecycle_shared", TestSupport.scalar(connection, "SELECT DATABASE()"));
            }
        } finally {
            shared.close();
        }
        SandboxCluster replacement = SandboxCluster.shared("lifecycle-shared", 1);
        try {
            assertNotSame(shared, replacement, "a closed shared cluster is replaced, not handed out");
        } finally {
            replacement.close();
        }
    }

    @Test
    void closeStopsEveryServerAndDeletesTheDataDirs() throws Exception {
        SandboxCluster cluster = SandboxCluster.start("lifecycle-close", 1);
        Path root = cluster.rootDir();
        int shardPort = TestSupport.port(cluster.shardUrl(0));
        int directoryPort = TestSupport.port(cluster.directoryUrl());
        assertTrue(Files.isDirectory(root.resolve("shard-0/data/lifecycle_close")));

        cluster.close();
        cluster.close(); // idempotent

        assertFalse(Files.exists(root), root + " still exists");
        assertFalse(cluster.isShardRunning(0));
        for (int port : new int[] {shardPort, directoryPort}) {
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
        }
        assertThrows(IllegalStateException.class, () -> cluster.startShard(0));
    }

    @Test
    void namesAreSanitisedAndSystemDatabasesRefused() {
        assertEquals("blog", SandboxCluster.databaseNameFor("blog"));
        assertEquals("my_blog_2", SandboxCluster.databaseNameFor("My-Blog 2"));
        assertThrows(IllegalArgumentException.class, () -> SandboxCluster.databaseNameFor("MySQL"));
        assertThrows(IllegalArgumentException.class, () -> SandboxCluster.databaseNameFor(" "));
        assertThrows(IllegalArgumentException.class, () -> SandboxCluster.start("no-shards", 0));
    }
}
