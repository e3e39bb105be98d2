package dev.shardex.cli;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.sandbox.SandboxCluster;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;

/**
 * Starts (or reuses, by name, in this JVM) a sandbox cluster and bootstraps its directory like
 * jdbc:shardex:sandbox: does: schema, shards 0..N-1, key space default.
 */
final class SandboxLauncher {
  private SandboxLauncher() {}

  static DirectoryTarget start(String name, int shards) throws SQLException {
    SandboxCluster sandbox;
    try {
      sandbox = SandboxCluster.shared(name, shards);
    } catch (RuntimeException e) {
      throw ShardexError.DIRECTORY_STATE.withCause(e, "cannot start sandbox cluster '" + name + "': " + e.getMessage());
    }
    DirectoryTarget target = new DirectoryTarget(sandbox.directoryUrl(), sandbox.user(), sandbox.password(), null, 0);
    try (CliSession s = CliSession.open(target, null, null, 2)) {
      DirectoryStore store = s.store();
      store.init();
      if (store.shards().isEmpty()) {
        for (int i = 0; i < shards; i++) {
          store.addShard(i, sandbox.shardUrl(i), 1.0);
        }
      }
      if (store.keySpace(KeySpace.DEFAULT) == null) {
        store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
      }
    }
    return target;
  }
}
