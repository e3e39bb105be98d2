package dev.shardex.benchmarks.micro;

import dev.shardex.directory.Directory;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.RouteTemplate;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What Shardex does per execution before a shard sees the statement, with warm caches, exactly as
 * {@code ShardexConnection.run} does it for a prepared statement: the statement holds its template
 * (analysed when prepared), the connection owns one {@link RouteContext} (from
 * {@code Cluster.routeContext}) reused for every statement, {@link Router#routeMarked} routes
 * (key -> directory cache -> shared plan, the key marked in the context), then the session
 * settles: writes end their in-flight mark ({@code ShardSession.settle} in autocommit) and the
 * read marks are checked ({@link dev.shardex.directory.placement.KeyMarks#current}). Writes also check the
 * lease. Run with {@code -prof gc}: a key-equality statement should allocate nothing here.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class RoutingBenchmark {

  /** A cursor over the fixture's keys, one per thread. */
  @State(Scope.Thread)
  public static class Cursor {
    int i;

    int next() {
      i = (i + 1) & (DirectoryFixture.KEYS - 1);
      return i;
    }
  }

  /** One logical connection's state: its route context, reused, and a cursor over the keys. */
  @State(Scope.Thread)
  public static class Connection extends Cursor {
    RouteContext routing;

    @Setup(Level.Trial)
    public void open(DirectoryFixture f) {
      routing = f.cluster.routeContext(null, new java.util.ArrayList<>());
    }
  }

  static RoutePlan run(RouteTemplate t, Object[] values, RouteContext ctx) throws Exception {
    RoutePlan plan = Router.routeMarked(t, values, ctx);
    ctx.marks().releaseWrites(); // autocommit: the write has finished (ShardSession.settle)
    Directory.release(plan.guards());
    if (!ctx.marks().current()) {
      throw new IllegalStateException("a key moved during the benchmark");
    }
    return plan;
  }

  @Benchmark
  public RoutePlan preparedPointSelect(DirectoryFixture f, Connection c) throws Exception {
    return run(f.point, f.pointValues[c.next()], c.routing);
  }

  @Benchmark
  public RoutePlan preparedUpdate(DirectoryFixture f, Connection c) throws Exception {
    return run(f.update, f.pointValues[c.next()], c.routing);
  }

  @Benchmark
  public RoutePlan preparedInsert(DirectoryFixture f, Connection c) throws Exception {
    return run(f.insert, f.insertValues[c.next()], c.routing);
  }
}
