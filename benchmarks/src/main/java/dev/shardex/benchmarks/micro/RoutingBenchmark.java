package dev.shardex.benchmarks.micro;

import dev.shardex.directory.Directory;
import dev.shardex.driver.route.RouteContext;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.RouteTemplate;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What Shardex does per execution before a shard sees the statement, with warm caches: the
 * template lookup and {@link Router#route} (key predicate -> directory cache -> plan), exactly as
 * {@code ShardexConnection.run} calls it (a new {@link RouteContext} per execution, from
 * {@code Cluster.routeContext}). Writes also
 * check the lease and take (and here release) the key's in-flight guard. The plain-statement case
 * adds the literal normaliser ({@code TemplateCache.plain}). The target: <= 1 us.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class RoutingBenchmark {

  @State(Scope.Thread)
  public static class Cursor {
    int i;

    int next() {
      i = (i + 1) & (DirectoryFixture.KEYS - 1);
      return i;
    }
  }

  private static RouteContext context(DirectoryFixture f) {
    return f.cluster.routeContext(null);
  }

  @Benchmark
  public RoutePlan preparedPointSelect(DirectoryFixture f, Cursor c) throws Exception {
    RouteTemplate t = f.templates.prepared(DirectoryFixture.POINT);
    return Router.route(t, f.pointValues[c.next()], context(f));
  }

  @Benchmark
  public RoutePlan preparedUpdate(DirectoryFixture f, Cursor c) throws Exception {
    RouteTemplate t = f.templates.prepared(DirectoryFixture.UPDATE);
    RoutePlan plan = Router.route(t, f.pointValues[c.next()], context(f));
    Directory.release(plan.guards());
    return plan;
  }

  @Benchmark
  public RoutePlan preparedInsert(DirectoryFixture f, Cursor c) throws Exception {
    RouteTemplate t = f.templates.prepared(DirectoryFixture.INSERT);
    RoutePlan plan = Router.route(t, f.insertValues[c.next()], context(f));
    Directory.release(plan.guards());
    return plan;
  }

  @Benchmark
  public RoutePlan plainPointSelect(DirectoryFixture f, Cursor c) throws Exception {
    Analysis a = f.templates.plain(f.plainPointTexts[c.next()]);
    return Router.route(a.template(), a.literals(), context(f));
  }
}
