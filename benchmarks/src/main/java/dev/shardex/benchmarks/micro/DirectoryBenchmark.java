package dev.shardex.benchmarks.micro;

import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/** A directory key-cache hit: {@code Directory.routeRead} of a BIGINT key already cached. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class DirectoryBenchmark {

  @Benchmark
  public Placement cachedRouteRead(DirectoryFixture f, RoutingBenchmark.Cursor c) throws Exception {
    return f.directory.routeRead(KeySpace.DEFAULT, f.keys[c.next()]);
  }
}
