package dev.shardex.cli.analyze;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The most used shard keys in bounded memory (Misra-Gries: at most {@code slots} counters; a key
 * seen more than total/slots times is always kept). Counts are lower bounds. Keys are kept as
 * their text only while counting; the report prints a short hash unless literals are asked for,
 * since keys are often user ids.
 */
final class HotKeys {
  private final int slots;
  private final Map<Object, long[]> counters = new HashMap<>();
  private long total;

  HotKeys(int slots) {
    this.slots = slots;
  }

  void add(Object key, long count) {
    total += count;
    long[] c = counters.get(key);
    if (c != null) {
      c[0] += count;
    } else if (counters.size() < slots) {
      counters.put(key, new long[] {count});
    } else {
      decrement(count);
    }
  }

  private void decrement(long by) {
    for (Iterator<long[]> it = counters.values().iterator(); it.hasNext(); ) {
      long[] c = it.next();
      c[0] -= by;
      if (c[0] <= 0) {
        it.remove();
      }
    }
  }

  long total() {
    return total;
  }

  /** The top keys, most used first, as (key, count). */
  List<Map.Entry<Object, Long>> top(int n) {
    List<Map.Entry<Object, Long>> all = new ArrayList<>();
    counters.forEach((k, c) -> all.add(Map.entry(k, c[0])));
    all.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
    return all.subList(0, Math.min(n, all.size()));
  }
}
