package dev.shardex.cli;

import static dev.shardex.cli.CliRunner.runWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.cli.CliRunner.Result;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.sandbox.SandboxReplica;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** 'shardex shards replicas add | remove | list' on a sandbox whose shard has a real replica. */
@Timeout(180)
class CliReplicasTest {
  private static SandboxCluster cluster;
  private static Map<String, String> env;

  @BeforeAll
  static void start() {
    cluster = SandboxCluster.start("cli-replicas", 1, 1);
    env = Map.of("SHARDEX_URL", cluster.directoryUrl(), "SHARDEX_USER", cluster.user(), "SHARDEX_PASSWORD", cluster.password());
    assertEquals(0, runWith(env, "init").code());
    assertEquals(0, runWith(env, "shards", "add", "0", cluster.shardUrl(0)).code());
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void addListPauseRemove() throws SQLException {
    SandboxReplica replica = cluster.replica(0, 0);
    Result added = runWith(env, "shards", "replicas", "add", "0", replica.url(), "--weight", "2");
    assertEquals(0, added.code(), added.toString());
    assertTrue(added.out().startsWith("Added replica 1 of shard 0 (" + replica.url() + ", weight 2.0), lag "), added.toString());
    try {
      replica.awaitCaughtUp(); // the add wrote the first heartbeat
      Result list = runWith(env, "shards", "replicas", "list");
      assertEquals(0, list.code(), list.toString());
      assertTrue(list.out().startsWith("SHARD  REPLICA  STATUS  WEIGHT  LAG_MS  STATE"), list.toString());
      assertTrue(list.out().lines().skip(1).findFirst().orElse("").matches("0 +1 +ONLINE +2\\.0 +0 +CAUGHT_UP +jdbc:.*"), list.toString());

      replica.pauseReplication();
      try {
        insertOnPrimary();
        Result lagging = runWith(env, "--json", "shards", "replicas", "list");
        assertEquals(0, lagging.code(), lagging.toString());
        assertTrue(lagging.out().contains("\"state\":\"STOPPED\",\"ms\":null"), lagging.toString());
        Result human = runWith(env, "shards", "replicas", "list");
        assertTrue(human.out().contains(" unknown ") && human.out().contains("STOPPED"), human.toString());
      } finally {
        replica.resumeReplication();
      }
    } finally {
      Result removed = runWith(env, "shards", "replicas", "remove", "0", "1");
      assertEquals(0, removed.code(), removed.toString());
    }
    assertEquals(1, runWith(env, "shards", "replicas", "list").out().lines().count(), "only the header is left");
  }

  @Test
  void refusals_areNamed() {
    Result secret = runWith(env, "shards", "replicas", "add", "0", "jdbc:mysql://h:3306/db?password=hunter2");
    assertEquals(1, secret.code(), secret.toString());
    assertFalse((secret.out() + secret.err()).contains("hunter2"), secret.toString());
    Result noShard = runWith(env, "shards", "replicas", "add", "9", cluster.replica(0, 0).url());
    assertEquals(2, noShard.code(), noShard.toString());
    assertTrue(noShard.err().contains("SHX1404"), noShard.toString());
    Result noReplica = runWith(env, "shards", "replicas", "remove", "0", "42");
    assertEquals(2, noReplica.code(), noReplica.toString());
    assertTrue(noReplica.err().contains("SHX1417"), noReplica.toString());
  }

  @Test
  void anUnreachableReplica_isListedAsUnreachable() {
    Result added = runWith(env, "shards", "replicas", "add", "0", "jdbc:mysql://127.0.0.1:1/db?connectTimeout=500");
    assertEquals(0, added.code(), added.toString());
    assertTrue(added.err().contains("lag is unknown"), added.toString());
    String id = added.out().replaceAll("(?s)Added replica (\\d+) .*", "$1");
    try {
      Result list = runWith(env, "shards", "replicas", "list");
      assertTrue(list.out().contains("UNREACHABLE"), list.toString());
    } finally {
      assertEquals(0, runWith(env, "shards", "replicas", "remove", "0", id).code());
    }
  }

  private static void insertOnPrimary() throws SQLException {
    try (Connection c = cluster.connectShard(0); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS notes (id INT PRIMARY KEY AUTO_INCREMENT)");
      s.execute("INSERT INTO notes VALUES ()");
    }
  }
}
