package dev.shardex.driver.jmx;

import dev.shardex.driver.events.RouteKind;
import dev.shardex.driver.events.StatementOutcome;
import dev.shardex.driver.events.TransactionOutcome;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link ShardexClusterMXBean}: adders indexed by enum ordinals and shard ids,
 * so counting allocates nothing; only a new SHX id or error code adds a map entry, once.
 */
final class Counters {
  static final String[] MODES = {"atomic", "single", "best_effort", "xa"};
  static final String[] SCOPES = {"one_shard", "multi_shard"};
  private static final int SHARDS = 4096;

  final LongAdder[][] statements = grid(RouteKind.values().length, StatementOutcome.values().length);
  final LongAdder[] statementNanos = row(RouteKind.values().length);
  final Map<String, LongAdder> refusals = new ConcurrentHashMap<>();
  final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  final LongAdder fanout = new LongAdder();
  final AtomicReferenceArray<LongAdder> shardCalls = new AtomicReferenceArray<>(SHARDS);
  final AtomicReferenceArray<LongAdder> shardErrors = new AtomicReferenceArray<>(SHARDS);
  final LongAdder[][] transactions = grid(MODES.length * SCOPES.length, TransactionOutcome.values().length);
  final LongAdder recoveredCommitted = new LongAdder();
  final LongAdder recoveredRolledBack = new LongAdder();

  private static LongAdder[][] grid(int rows, int columns) {
    LongAdder[][] g = new LongAdder[rows][];
    for (int i = 0; i < rows; i++) {
      g[i] = row(columns);
    }
    return g;
  }

  private static LongAdder[] row(int n) {
    LongAdder[] r = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      r[i] = new LongAdder();
    }
    return r;
  }

  static void count(Map<String, LongAdder> by, String key) {
    LongAdder a = by.get(key);
    (a != null ? a : by.computeIfAbsent(key, k -> new LongAdder())).increment();
  }

  /** Shard ids past the array's end share its last slot (no catalog comes near). */
  static void count(AtomicReferenceArray<LongAdder> by, int shard) {
    int at = Math.min(Math.max(shard, 0), SHARDS - 1);
    LongAdder a = by.get(at);
    if (a == null) {
      by.compareAndSet(at, null, new LongAdder());
      a = by.get(at);
    }
    a.increment();
  }

  static int mode(String mode) {
    for (int i = 0; i < MODES.length; i++) {
      if (MODES[i].equals(mode)) {
        return i;
      }
    }
    return 0;
  }

  static Map<String, Long> read(Map<String, LongAdder> by) {
    Map<String, Long> out = new TreeMap<>();
    by.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  static Map<String, Long> read(AtomicReferenceArray<LongAdder> by) {
    Map<String, Long> out = new TreeMap<>();
    for (int i = 0; i < by.length(); i++) {
      LongAdder a = by.get(i);
      if (a != null) {
        out.put(Integer.toString(i), a.sum());
      }
    }
    return out;
  }
}
