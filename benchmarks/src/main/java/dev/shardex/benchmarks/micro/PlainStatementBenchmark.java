package dev.shardex.benchmarks.micro;

import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.Analysis;
import dev.shardex.driver.sql.NormalizedSql;
import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.driver.sql.TemplateCache;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A plain {@code Statement} with literals, before a shard sees it: the normaliser (literals out,
 * {@code ?} in), the template lookup by the normalised text ({@code TemplateCache.plain}, a cache
 * hit) and {@link Router#routeMarked} with a reused route context, as the driver does, on the same warm directory as {@link RoutingBenchmark}. The
 * issue's target for normalise + route: <= 0.5 us. {@code lexerOnly} and {@code templateOnly}
 * need no directory and show what the normaliser and the lookup cost alone; {@code mixed} is a
 * longer text (a string with an escaped quote, an IN list, a negative number, a LIMIT).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class PlainStatementBenchmark {

  /** Texts that differ only in their literals, as an application would send them; no directory. */
  @State(Scope.Thread)
  public static class Texts {
    final String[] point = new String[DirectoryFixture.KEYS];
    final String[] mixed = new String[DirectoryFixture.KEYS];
    final TemplateCache templates = new TemplateCache(10_000);
    int i;

    @Setup
    public void setUp() throws Exception {
      for (int u = 0; u < DirectoryFixture.KEYS; u++) {
        point[u] = "SELECT user_id, name, email, visits FROM users WHERE user_id = " + u;
        mixed[u] = "SELECT post_id, title FROM posts WHERE user_id IN (" + u + ", " + (u + 7)
            + ") AND title <> 'it''s " + u + "' AND views > -" + u + " ORDER BY post_id LIMIT 10";
      }
      templates.plain(point[0]);
      templates.plain(mixed[0]);
    }

    int next() {
      i = (i + 1) & (DirectoryFixture.KEYS - 1);
      return i;
    }
  }

  @Benchmark
  public NormalizedSql lexerOnly(Texts t) {
    return SqlLexer.normalise(t.point[t.next()]);
  }

  @Benchmark
  public Analysis templateOnly(Texts t) throws Exception {
    return t.templates.plain(t.point[t.next()]);
  }

  @Benchmark
  public Analysis templateOnlyMixed(Texts t) throws Exception {
    return t.templates.plain(t.mixed[t.next()]);
  }

  @Benchmark
  public RoutePlan normaliseAndRoute(DirectoryFixture f, RoutingBenchmark.Connection c) throws Exception {
    Analysis a = f.templates.plain(f.plainPointTexts[c.next()]);
    return RoutingBenchmark.run(a.template(), a.literals(), c.routing); // as the driver routes: reused context

  }
}
