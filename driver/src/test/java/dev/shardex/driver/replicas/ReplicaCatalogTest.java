package dev.shardex.driver.replicas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Replica;
import dev.shardex.directory.catalog.ReplicaStatus;
import dev.shardex.driver.TestCluster;
import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** jdbc:shardex:sandbox:NAME?shards=2&replicas=1 starts real replicas and declares them; drivers reload the replica catalog. */
@Timeout(180)
class ReplicaCatalogTest {
  static final String NAME = "replicas";
  static final String URL = "jdbc:shardex:sandbox:" + NAME + "?shards=2&replicas=1";

  @Test
  void sandboxUrl_startsAndDeclaresTheReplicas() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL)) {
      var directory = TestCluster.cluster(c).directory();
      SandboxCluster sandbox = SandboxCluster.shared(NAME, 2, 1);
      for (int shard = 0; shard < 2; shard++) {
        assertEquals(List.of(new Replica(shard, 1, sandbox.replica(shard, 0).url(), 1.0, ReplicaStatus.ONLINE)),
            directory.replicas(shard));
        assertFalse(sandbox.replica(shard, 0).url().equals(sandbox.shardUrl(shard)));
      }
      assertTrue(directory.hasReplicas());
    }
  }

  @Test
  void aReplicaChange_reachesARunningDriverThroughTheChangeLog() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL)) {
      var directory = TestCluster.cluster(c).directory();
      DirectoryStore store = directory.store();
      int added = store.addReplica(1, "jdbc:mysql://127.0.0.1:1/replicas", 0.5);
      try {
        directory.pollNow();
        assertEquals(2, directory.replicas(1).size(), directory.replicas(1).toString());
        assertEquals(0.5, directory.replicas(1).get(1).weight());
      } finally {
        store.removeReplica(1, added);
      }
      directory.pollNow();
      assertEquals(1, directory.replicas(1).size(), directory.replicas(1).toString());
    }
  }

  @Test
  void withoutReplicasOnTheUrl_theCatalogHasNone() throws SQLException {
    try (Connection c = TestCluster.connect()) {
      assertFalse(TestCluster.cluster(c).directory().hasReplicas());
    }
  }
}
