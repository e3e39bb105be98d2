package dev.shardex.directory.move;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which keys to move where so that every shard ends within a tolerance of its weighted share,
 * moving few rows. A pure function of the loads, so it is tested without a cluster.
 *
 * <p>A key's load is its row count (at least 1, so empty users still count). A shard's target is
 * {@code total * weight / sum of weights}; weight 0 drains a shard. Greedy: repeatedly take the
 * most overloaded and the most underloaded shard and move the largest key that fits in the
 * smaller of the two gaps (no overshoot, so rows moved stay close to the minimum, the sum of the
 * excesses). When no key fits, the smallest key moves if that still lowers the total deviation.
 * Every move lowers the total deviation, so the loop ends.
 */
public final class RebalancePlanner {
  /**
   * One shard's keys and their loads, as scanned. {@code keys} may list only some of them (the
   * candidates to move): {@code unlisted} is the load of the rest.
   */
  public record ShardLoad(int shardId, double weight, Map<String, Long> keys, long unlisted) {
    public ShardLoad(int shardId, double weight, Map<String, Long> keys) {
      this(shardId, weight, keys, 0);
    }
  }

  public record PlannedMove(String key, int from, int to, long rows) {}

  public record ShardBalance(int shardId, double weight, long before, long after, double target) {
    public boolean within(double tolerance) {
      return Math.abs(after - target) <= tolerance * target + 1e-9;
    }
  }

  public record Plan(List<PlannedMove> moves, List<ShardBalance> shards, double tolerance, long rowsMoved) {
    public boolean balanced() {
      return shards.stream().allMatch(s -> s.within(tolerance));
    }
  }

  private RebalancePlanner() {}

  public static Plan plan(List<ShardLoad> input, double tolerance, int maxMoves) {
    List<Bin> bins = new ArrayList<>();
    double weights = 0;
    long total = 0;
    for (ShardLoad s : input) {
      Bin bin = new Bin(s.shardId(), Math.max(0, s.weight()));
      bin.load = Math.max(0, s.unlisted());
      s.keys().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> bin.add(e.getKey(), Math.max(1, e.getValue())));
      bins.add(bin);
      weights += bin.weight;
      total += bin.load;
    }
    Map<Integer, Long> before = new LinkedHashMap<>();
    for (Bin b : bins) {
      b.target = weights > 0 ? total * b.weight / weights : 0;
      before.put(b.id, b.load);
    }
    List<PlannedMove> moves = new ArrayList<>();
    long rowsMoved = 0;
    while (moves.size() < maxMoves && !allWithin(bins, tolerance)) {
      PlannedMove next = bestMove(bins);
      if (next == null) {
        break;
      }
      moves.add(next);
      rowsMoved += next.rows();
    }
    List<ShardBalance> balance = new ArrayList<>();
    for (Bin b : bins) {
      balance.add(new ShardBalance(b.id, b.weight, before.get(b.id), b.load, b.target));
    }
    return new Plan(List.copyOf(moves), List.copyOf(balance), tolerance, rowsMoved);
  }

  private static boolean allWithin(List<Bin> bins, double tolerance) {
    return bins.stream().allMatch(b -> Math.abs(b.load - b.target) <= tolerance * b.target + 1e-9);
  }

  /** Tries shard pairs from the worst excess and worst deficit inwards; applies and returns the first improving move. */
  private static PlannedMove bestMove(List<Bin> bins) {
    List<Bin> over = bins.stream().filter(b -> b.load > b.target)
        .sorted(Comparator.comparingDouble((Bin b) -> b.target - b.load).thenComparingInt(b -> b.id)).toList();
    List<Bin> under = bins.stream().filter(b -> b.load < b.target && b.weight > 0)
        .sorted(Comparator.comparingDouble((Bin b) -> b.load - b.target).thenComparingInt(b -> b.id)).toList();
    for (Bin from : over) {
      for (Bin to : under) {
        double excess = from.load - from.target;
        double deficit = to.target - to.load;
        Long fit = from.byLoad.floorKey((long) Math.floor(Math.min(excess, deficit)));
        Long pick = fit != null ? fit : from.byLoad.isEmpty() ? null : from.byLoad.firstKey();
        // Strictly lower total deviation: |excess - l| + |deficit - l| < excess + deficit.
        if (pick != null && Math.abs(excess - pick) + Math.abs(deficit - pick) < excess + deficit - 1e-9) {
          String key = from.take(pick);
          to.add(key, pick);
          return new PlannedMove(key, from.id, to.id, pick);
        }
      }
    }
    return null;
  }

  private static final class Bin {
    final int id;
    final double weight;
    final TreeMap<Long, Deque<String>> byLoad = new TreeMap<>();
    long load;
    double target;

    Bin(int id, double weight) {
      this.id = id;
      this.weight = weight;
    }

    void add(String key, long rows) {
      byLoad.computeIfAbsent(rows, r -> new ArrayDeque<>()).addLast(key);
      load += rows;
    }

    String take(long rows) {
      Deque<String> keys = byLoad.get(rows);
      String key = keys.pollFirst();
      if (keys.isEmpty()) {
        byLoad.remove(rows);
      }
      load -= rows;
      return key;
    }
  }
}
