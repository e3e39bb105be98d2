package dev.shardex.directory.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Replica;
import dev.shardex.directory.catalog.ReplicaStatus;
import dev.shardex.directory.change.Change;
import dev.shardex.directory.replica.ReplicaLag.Lag;
import dev.shardex.directory.replica.ReplicaLag.State;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.sandbox.SandboxReplica;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The replica catalog and the lag measurement, over real MariaDB replication (one shard, one replica). */
@Timeout(180)
class ReplicaLagTest {
  private static SandboxCluster cluster;
  private static HikariDataSource pool;
  private static DirectoryStore store;

  @BeforeAll
  static void start() throws SQLException {
    cluster = SandboxCluster.start("replica-lag", 1, 1);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(cluster.directoryUrl());
    config.setUsername(cluster.user());
    config.setPassword(cluster.password());
    config.setMaximumPoolSize(2);
    config.setPoolName("replica-lag-directory");
    pool = new HikariDataSource(config);
    store = new DirectoryStore(pool);
    store.init();
    store.addShard(0, cluster.shardUrl(0), 1);
    try (Connection c = cluster.connectShard(0); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE notes (id INT PRIMARY KEY)");
    }
  }

  @AfterAll
  static void stop() {
    if (pool != null) {
      pool.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void catalog_addListRemove_logsShardChanges() throws SQLException {
    long before = store.lastChange();
    int first = store.addReplica(0, cluster.replica(0, 0).url(), 2);
    int second = store.addReplica(0, "jdbc:mysql://127.0.0.1:1/x?user=u&password=hunter2", 1);
    assertEquals(second, first + 1);
    List<Replica> all = store.replicas();
    assertEquals(List.of(new Replica(0, first, cluster.replica(0, 0).url(), 2, ReplicaStatus.ONLINE),
        new Replica(0, second, "jdbc:mysql://127.0.0.1:1/x?user=u&password=***", 1, ReplicaStatus.ONLINE)), all);
    List<Change> changes = store.changesSince(before, 10);
    assertEquals(2, changes.size());
    assertTrue(changes.stream().allMatch(c -> c.kind() == Change.Kind.SHARD && "0".equals(c.ref())), changes.toString());

    store.removeReplica(0, second);
    SQLException unknown = assertThrows(SQLException.class, () -> store.removeReplica(0, second));
    assertTrue(unknown.getMessage().contains("SHX1417"), unknown.getMessage());
    SQLException noShard = assertThrows(SQLException.class, () -> store.addReplica(7, cluster.replica(0, 0).url(), 1));
    assertTrue(noShard.getMessage().contains("SHX1404"), noShard.getMessage());
    store.removeReplica(0, first);
    assertEquals(List.of(), store.replicas());
  }

  @Test
  void lag_caughtUp_isExactlyZero() throws SQLException {
    SandboxReplica replica = cluster.replica(0, 0);
    insert(1);
    replica.awaitCaughtUp();
    Lag lag = measure(replica);
    assertEquals(State.CAUGHT_UP, lag.state(), lag.toString());
    assertEquals(0, lag.lagMs());
    assertTrue(lag.within(0));
  }

  @Test
  void lag_stoppedSqlThread_isUnknownNeverZero() throws SQLException {
    SandboxReplica replica = cluster.replica(0, 0);
    replica.awaitCaughtUp();
    replica.pauseReplication();
    try {
      Lag lag = measure(replica);
      assertEquals(State.STOPPED, lag.state(), "stopped counts even before anything is behind: " + lag);
      assertFalse(lag.within(Long.MAX_VALUE));
      assertEquals(-1, lag.lagMs());
    } finally {
      replica.resumeReplication();
    }
  }

  @Test
  void lag_delayedReplica_isThePrimarysClockMinusTheHeartbeatItHolds() throws SQLException, InterruptedException {
    SandboxReplica replica = cluster.replica(0, 0);
    try (Connection primary = cluster.connectShard(0)) {
      ReplicaLag.beat(primary, 0);
    }
    replica.awaitCaughtUp();
    try (Connection r = replica.connect(); Statement s = r.createStatement()) {
      s.execute("STOP SLAVE");
      s.execute("CHANGE MASTER TO MASTER_DELAY = 3");
      s.execute("START SLAVE");
    }
    try {
      Thread.sleep(400);
      try (Connection primary = cluster.connectShard(0)) {
        ReplicaLag.beat(primary, 0); // applied on the replica only 3 s from now
      }
      insert(2);
      Lag lag = measure(replica);
      assertEquals(State.BEHIND, lag.state(), lag.toString());
      assertTrue(lag.lagMs() >= 400 && lag.lagMs() < 3_000, lag.toString());
      assertFalse(lag.within(300));
      assertTrue(lag.within(3_000));
    } finally {
      try (Connection r = replica.connect(); Statement s = r.createStatement()) {
        s.execute("STOP SLAVE");
        s.execute("CHANGE MASTER TO MASTER_DELAY = 0");
        s.execute("START SLAVE");
      }
      replica.awaitCaughtUp();
    }
  }

  @Test
  void lag_aServerThatDoesNotReplicate_isUnknown() throws SQLException {
    try (Connection primary = cluster.connectShard(0); Connection notAReplica = cluster.connectDirectory()) {
      Lag lag = ReplicaLag.measure(primary, notAReplica, 0);
      assertEquals(State.STOPPED, lag.state(), lag.toString());
      assertTrue(lag.detail().contains("not replicating"), lag.toString());
    }
  }

  private static Lag measure(SandboxReplica replica) throws SQLException {
    try (Connection primary = cluster.connectShard(0); Connection r = replica.connect()) {
      return ReplicaLag.measure(primary, r, 0);
    }
  }

  private static void insert(int id) throws SQLException {
    try (Connection c = cluster.connectShard(0); Statement s = c.createStatement()) {
      s.execute("INSERT INTO notes VALUES (" + id + ")");
    }
  }
}
