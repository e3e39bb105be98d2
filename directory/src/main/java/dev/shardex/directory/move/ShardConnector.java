package dev.shardex.directory.move;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens a direct (unsharded) connection to one shard; the caller closes it. The CLI builds one
 * from the catalog's URLs and its credentials; tests pass {@code SandboxCluster::connectShard}.
 */
@FunctionalInterface
public interface ShardConnector {
  Connection connect(int shardId) throws SQLException;
}
