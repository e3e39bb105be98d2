package dev.shardex.junit;

import dev.shardex.sandbox.SandboxCluster;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link ShardedCluster}: starts the class's cluster on first use, keeps it for
 * the whole run (containers are stopped at its end, sandbox servers when the JVM exits), and
 * resolves {@link ShardexCluster} and {@link Connection} parameters.
 */
public final class ShardexExtension implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ShardexExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == ShardexCluster.class || type == Connection.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ShardexCluster cluster = cluster(context);
    if (parameter.getParameter().getType() == ShardexCluster.class) {
      return cluster;
    }
    try {
      Connection connection = cluster.connect();
      // Closed when the scope that asked for it (test method or class) ends.
      context.getStore(NAMESPACE).put(connection, (ExtensionContext.Store.CloseableResource) connection::close);
      return connection;
    } catch (SQLException e) {
      throw new ParameterResolutionException("Cannot connect to " + cluster + ": " + e.getMessage(), e);
    }
  }

  private static ShardexCluster cluster(ExtensionContext context) {
    ShardedCluster declared = declaration(context);
    Backend backend = Backend.chosen(declared.backend());
    String key = backend + ":" + declared.name() + ":" + declared.shards();
    ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
    return root.getOrComputeIfAbsent(key, k -> start(backend, declared.name(), declared.shards()), Started.class).cluster();
  }

  private static ShardedCluster declaration(ExtensionContext context) {
    for (Optional<Class<?>> type = context.getTestClass(); type.isPresent();
        type = Optional.ofNullable(type.get().getEnclosingClass())) {
      Optional<ShardedCluster> found = AnnotationSupport.findAnnotation(type.get(), ShardedCluster.class);
      if (found.isPresent()) {
        return found.get();
      }
    }
    throw new ExtensionConfigurationException("ShardexExtension needs @ShardedCluster on the test class");
  }

  private static Started start(Backend backend, String name, int shards) {
    if (shards < 1) {
      throw new ExtensionConfigurationException("@ShardedCluster(shards = " + shards + "): a cluster needs at least 1 shard");
    }
    if (backend == Backend.CONTAINERS) {
      return MySqlContainers.start(name, shards);
    }
    SandboxCluster sandbox = SandboxCluster.shared(name, shards);
    List<String> shardUrls = new ArrayList<>();
    for (int i = 0; i < shards; i++) {
      shardUrls.add(sandbox.shardUrl(i));
    }
    String url = "jdbc:shardex:sandbox:" + name + "?shards=" + shards;
    // Shared sandboxes stop at JVM exit (their own shutdown hook), so other classes can reuse them.
    return new Started(new ShardexCluster(Backend.SANDBOX, url, shardUrls, sandbox.user(), sandbox.password()), () -> {});
  }

  /** A cluster and what stops it at the end of the run. */
  record Started(ShardexCluster cluster, Runnable stop) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      stop.run();
    }
  }
}
