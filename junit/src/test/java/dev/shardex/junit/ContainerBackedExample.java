package dev.shardex.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A user's test on MySQL containers. Not run by surefire (the name is no *Test): ContainerBackendTest
 * launches it to see what a user sees on a machine without Docker.
 */
@ShardedCluster(shards = 2, name = "junit-containers", backend = Backend.CONTAINERS)
class ContainerBackedExample {
  @Test
  void runsOnMySql(ShardexCluster cluster) {
    assertEquals(Backend.CONTAINERS, cluster.backend());
  }
}
