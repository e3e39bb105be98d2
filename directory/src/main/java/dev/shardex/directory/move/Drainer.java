package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.move.MoveRunner.Outcome;
import dev.shardex.directory.move.RebalancePlanner.PlannedMove;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Empties a shard online: every key of every key space on it is moved, one online move each (the
 * usual protocol: no lost write), to the other ONLINE shards, each to the one with the fewest keys
 * per unit of weight at that point. First the shard's weight is set to 0, so no new key is placed on
 * it meanwhile; its keys stay writable until their own move freezes them. Once it holds no key,
 * {@code removeShard} (the CLI's {@code shards remove}) takes it out of the catalog.
 *
 * <p>Entry point for the CLI: {@code new Drainer(store, mover).drain(shard, parallel, progress)},
 * then {@code store.removeShard(shard)} if {@link Result#empty()}. Re-runnable: a second drain
 * moves what the first left (keys that were moving, failed moves).
 */
public final class Drainer {
  /** What a drain did: moves done and failed, keys left on the shard, and how long it took. */
  public record Result(int shard, int moved, List<Outcome> failed, long left, long millis) {
    public boolean empty() {
      return left == 0;
    }

    /** Milliseconds per 1,000 keys moved. */
    public long millisPerThousand() {
      return moved == 0 ? 0 : millis * 1_000 / moved;
    }
  }

  /** Keys planned per round: the key map is read in pages, not whole. */
  private static final int PAGE = 1_000;

  private final DirectoryStore store;
  private final Mover mover;

  public Drainer(DirectoryStore store, Mover mover) {
    this.store = store;
    this.mover = mover;
  }

  /**
   * Moves every key off {@code shard}, {@code parallel} moves at a time; {@code progress} gets one
   * update per finished move (done, total keys found on the shard so far, the outcome).
   */
  public Result drain(int shard, int parallel, Progress progress) throws SQLException {
    long start = System.nanoTime();
    Shard drained = shard(shard);
    if (targets(shard).isEmpty()) {
      throw ShardexError.MOVE_REFUSED.exception("(every key)", "shard " + shard,
          "no other ONLINE shard with a weight above 0 can take its keys; add one first ('shardex shards add')");
    }
    if (drained.weight() != 0) {
      store.setShardWeight(shard, 0); // no new key lands here from now on
    }
    int moved = 0;
    List<Outcome> failed = new ArrayList<>();
    AtomicLong done = new AtomicLong();
    AtomicLong total = new AtomicLong();
    for (KeySpace space : store.keySpaces()) {
      java.util.Set<String> tried = new java.util.HashSet<>();
      while (true) {
        List<String> keys = new ArrayList<>(store.activeKeysOn(space.name(), shard, PAGE + tried.size()));
        keys.removeAll(tried); // a key whose move failed is reported once, not retried for ever
        if (keys.isEmpty()) {
          break;
        }
        tried.addAll(keys);
        total.addAndGet(keys.size());
        List<PlannedMove> plan = assign(shard, keys);
        for (Outcome o : MoveRunner.runAll(mover, space.name(), plan, parallel, o -> progress.update(
            done.incrementAndGet(), total.get(), o.planned().key() + " -> shard " + o.planned().to()
                + (o.ok() ? "" : ": " + (o.error() == null ? o.record().step() : o.error().getMessage()))))) {
          if (o.ok()) {
            moved++;
          } else {
            failed.add(o);
          }
        }
      }
    }
    long left = shard(shard).keyCount(); // the key map's count: FROZEN keys (someone else's move) too
    return new Result(shard, moved, failed, left, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  /** Each key to the target with the fewest keys per unit of weight, counting the keys assigned so far. */
  private List<PlannedMove> assign(int from, List<String> keys) throws SQLException {
    List<Shard> targets = targets(from);
    Map<Integer, Long> counts = new HashMap<>();
    targets.forEach(s -> counts.put(s.id(), s.keyCount()));
    List<PlannedMove> plan = new ArrayList<>();
    for (String key : keys) {
      Shard best = targets.get(0);
      for (Shard s : targets) {
        if (counts.get(s.id()) / s.weight() < counts.get(best.id()) / best.weight()) {
          best = s;
        }
      }
      counts.merge(best.id(), 1L, Long::sum);
      plan.add(new PlannedMove(key, from, best.id(), 0));
    }
    return plan;
  }

  private List<Shard> targets(int from) throws SQLException {
    return store.shards().stream()
        .filter(s -> s.id() != from && s.status() == ShardStatus.ONLINE && s.weight() > 0)
        .toList();
  }

  private Shard shard(int id) throws SQLException {
    return store.shards().stream().filter(s -> s.id() == id).findFirst()
        .orElseThrow(() -> ShardexError.UNKNOWN_SHARD.exception(id));
  }
}
