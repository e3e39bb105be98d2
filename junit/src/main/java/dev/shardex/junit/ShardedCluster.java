package dev.shardex.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class a sharded cluster: test methods (and constructors, lifecycle methods) may
 * take a {@link ShardexCluster} (its URL, direct shard connections) or a {@link java.sql.Connection}
 * through Shardex (closed after the test).
 *
 * <pre>
 * &#64;ShardedCluster(shards = 4)
 * class OrdersIT {
 *   &#64;Test void ordersStayWithTheirUser(ShardexCluster cluster, Connection c) { ... }
 * }
 * </pre>
 *
 * <p>A cluster is started on first use and shared, by name, by every test class of the run that
 * asks for the same name: tables and rows stay from one class to the next, so give a class its own
 * name when it needs a clean cluster.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ShardexExtension.class)
public @interface ShardedCluster {
  /** Number of shards (ids 0..shards-1). */
  int shards() default 2;

  /** Cluster name: classes that give the same name share one cluster. */
  String name() default "shardex-test";

  /**
   * What runs the shards. The system property {@code shardex.test.backend} ({@code sandbox} or
   * {@code containers}) overrides it for a whole run, e.g. to run the same tests on MySQL in CI.
   */
  Backend backend() default Backend.SANDBOX;
}
