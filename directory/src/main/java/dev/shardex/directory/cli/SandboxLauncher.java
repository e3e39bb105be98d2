package dev.shardex.directory.cli;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.KeySpace;
import dev.shardex.directory.KeyType;
import dev.shardex.directory.ShardexError;
import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.Map;

/**
 * Starts (or reuses, by name, in this JVM) a sandbox cluster from the sandbox module, found by
 * reflection as the driver does: the directory module only has it as a provided dependency, so
 * it is there in tests and under bin/shardex, not in the shaded jar or for library users.
 * Bootstraps the directory like jdbc:shardex:sandbox: does: schema, shards 0..N-1, key space default.
 */
final class SandboxLauncher {
  private SandboxLauncher() {}

  @SuppressWarnings("unchecked")
  static DirectoryTarget start(String name, int shards) throws SQLException {
    Map<String, String> sandbox;
    try {
      Class<?> cluster = Class.forName("dev.shardex.sandbox.SandboxCluster");
      Method describe = cluster.getMethod("describeShared", String.class, int.class);
      sandbox = (Map<String, String>) describe.invoke(null, name, shards);
    } catch (ClassNotFoundException e) {
      throw ShardexError.DIRECTORY_STATE.withCause(e, "the sandbox module (dev.shardex:shardex-sandbox) is not on the "
          + "classpath; run the CLI with bin/shardex from a source checkout, which has it");
    } catch (ReflectiveOperationException | RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw ShardexError.DIRECTORY_STATE.withCause(cause, "cannot start sandbox cluster '" + name + "': " + cause.getMessage());
    }
    DirectoryTarget target = new DirectoryTarget(sandbox.get("directoryUrl"), sandbox.get("user"), sandbox.get("password"), null, 0);
    try (CliSession s = CliSession.open(target, null, null, 2)) {
      DirectoryStore store = s.store();
      store.init();
      if (store.shards().isEmpty()) {
        String[] urls = sandbox.get("shardUrls").split(",");
        for (int i = 0; i < urls.length; i++) {
          store.addShard(i, urls[i], 1.0);
        }
      }
      if (store.keySpace(KeySpace.DEFAULT) == null) {
        store.addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
      }
    }
    return target;
  }
}
