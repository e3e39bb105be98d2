package dev.shardex.micrometer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One shard's per-call figures, kept side by side: its calls' count and nanoseconds
 * ({@code shardex.shard.calls}) and its pool's acquire count and nanoseconds and usage count and
 * milliseconds ({@code hikaricp.connections.acquire}, {@code .usage}). A one-shard statement
 * updates all of them, so they share a stretch of memory: as six adders they were six objects, six
 * cache lines to fetch per statement, and those misses, not the adds, were most of what the
 * meters cost a statement among the driver's and Connector/J's own memory traffic.
 *
 * <p>Striped by thread as a {@code LongAdder} is (threads on other cores rarely share a stripe):
 * each stripe is eight longs of one array, the figures of one add are read back as the sum over
 * the stripes when the registry is scraped. Each add is atomic ({@code getAndAdd}); a scrape
 * sees every add that finished before it.
 */
final class ShardCounters {
  static final int CALLS = 0;
  static final int ACQUIRES = 2;
  static final int USAGES = 4;

  private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
  /** Longs per stripe: a cache line. */
  private static final int WIDTH = 8;
  private static final int STRIPES = stripes(Runtime.getRuntime().availableProcessors());

  private final long[] cells = new long[STRIPES * WIDTH];

  /** A power of two at least the processor count, at most 64. */
  static int stripes(int processors) {
    return Math.min(64, Integer.highestOneBit(Math.max(1, processors) * 2 - 1));
  }

  /** One more of {@code what} ({@link #CALLS}, {@link #ACQUIRES}, {@link #USAGES}), lasting {@code amount}. */
  void add(int what, long amount) {
    int at = stripe() + what;
    CELLS.getAndAdd(cells, at, 1L);
    if (amount != 0) { // HikariCP's usage is whole ms: 0 for most borrows
      CELLS.getAndAdd(cells, at + 1, amount);
    }
  }

  private static int stripe() {
    int h = Thread.currentThread().hashCode() * 0x9E3779B9;
    return ((h ^ (h >>> 16)) & (STRIPES - 1)) * WIDTH;
  }

  long count(int what) {
    return sum(what);
  }

  /** The total of {@code what}'s amounts, in the unit it was added in. */
  double total(int what) {
    return sum(what + 1);
  }

  private long sum(int at) {
    long s = 0;
    for (int i = at; i < cells.length; i += WIDTH) {
      s += (long) CELLS.getVolatile(cells, i);
    }
    return s;
  }
}
