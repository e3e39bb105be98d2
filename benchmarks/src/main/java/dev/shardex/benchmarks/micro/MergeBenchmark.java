package dev.shardex.benchmarks.micro;

import dev.shardex.driver.merge.ShardResultSet;
import dev.shardex.driver.merge.SortedMergeResultSet;
import dev.shardex.driver.sql.MergeSpec;
import dev.shardex.driver.sql.TemplateCache;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The merge stage's k-way merge, {@link SortedMergeResultSet} (what the plan's MergeSort operator opens): k shard
 * streams of {@link #ROWS} rows each, sorted by the ORDER BY key, merged and read to the end (every
 * row's two columns read, as an application would). The spec comes from the driver's own rewriter
 * ({@code TemplateCache.merge}). {@code key}: a DATETIME sort key (LocalDateTime, as Connector/J
 * returns it) or a BIGINT one (Long). Time is per merge of k x ROWS rows.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Thread)
public class MergeBenchmark {
  public static final int ROWS = 100;

  @Param({"4", "16"})
  public int k;

  @Param({"datetime", "bigint"})
  public String key;

  private MergeSpec spec;
  private Object[][][] streams;
  private ResultSetMetaData meta;
  private String shards;

  @Setup(Level.Trial)
  public void prepare() throws Exception {
    String order = key.equals("datetime") ? "created_at DESC" : "post_id DESC";
    StringBuilder ids = new StringBuilder();
    for (int s = 0; s < k; s++) {
      ids.append(s == 0 ? "" : ", ").append(s);
    }
    shards = ids.toString();
    spec = new TemplateCache(100).merge("SELECT post_id, created_at FROM posts ORDER BY " + order, shards,
        dev.shardex.driver.sql.WindowRule.NONE);
    if (spec.hidden() != 0 || spec.order().size() != 1) {
      throw new IllegalStateException("unexpected merge spec " + spec);
    }
    meta = MemoryResultSet.meta("post_id", "created_at");
    LocalDateTime base = LocalDateTime.of(2026, 1, 1, 0, 0);
    streams = new Object[k][ROWS][];
    for (int s = 0; s < k; s++) {
      for (int r = 0; r < ROWS; r++) {
        long postId = (long) (ROWS - r) * k + s; // interleaved across shards, descending within each
        streams[s][r] = new Object[] {postId, base.plusSeconds(postId * 37)};
      }
    }
  }

  @Benchmark
  public long mergeAll(Blackhole bh) throws Exception {
    List<ShardResultSet> parts = new ArrayList<>(k);
    for (int s = 0; s < k; s++) {
      parts.add(new ShardResultSet(new MemoryResultSet(streams[s], meta), null, () -> {}));
    }
    long n = 0;
    try (ResultSet merged = new SortedMergeResultSet(parts, spec.order(), new boolean[2], meta, null, 0, -1)) {
      while (merged.next()) {
        bh.consume(merged.getLong(1));
        bh.consume(merged.getObject(2));
        n++;
      }
    }
    if (n != (long) k * ROWS) {
      throw new IllegalStateException("merged " + n + " rows, expected " + k * ROWS);
    }
    return n;
  }
}
