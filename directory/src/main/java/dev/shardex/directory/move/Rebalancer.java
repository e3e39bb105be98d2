package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.move.RebalancePlanner.Plan;
import dev.shardex.directory.move.RebalancePlanner.ShardLoad;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scans a key space's loads (rows per key, per ONLINE shard) and hands them to the planner. Keys
 * being moved, and shards that are READ_ONLY or OFFLINE, are left out: they neither give nor take.
 *
 * <p>Bounded memory at any number of keys: a first pass sums each shard's load a page of keys at a
 * time ({@link KeyPages#ownedLoads}: the key map pages the keys, the shard counts their rows); the
 * targets follow from the sums; a second pass lists, for each shard above its target, only enough
 * of its keys to cover twice its excess (at most twice {@code maxMoves}) as candidates. The rest
 * weighs in as one number. So the heap holds about the plan's size, not the key space's.
 */
public final class Rebalancer {
  private final DirectoryStore store;
  private final ShardConnector shards;

  public Rebalancer(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
  }

  public Plan plan(String keySpace, double tolerance, int maxMoves, Progress progress) throws SQLException {
    return RebalancePlanner.plan(loads(keySpace, maxMoves, progress), tolerance, maxMoves);
  }

  /** Each ONLINE shard's load, with the candidate keys of those above their target listed. */
  public List<ShardLoad> loads(String keySpace, int maxMoves, Progress progress) throws SQLException {
    List<Shard> online = store.shards().stream().filter(s -> s.status() == ShardStatus.ONLINE).toList();
    Set<String> moving = new HashSet<>(new MoveJournal(store).movingKeys(keySpace));
    KeyType type = keyType(keySpace);
    Map<Integer, Long> totals = new LinkedHashMap<>();
    double weights = 0;
    int done = 0;
    for (Shard s : online) {
      long[] sum = {0};
      scan(keySpace, s.id(), type, moving, page -> {
        page.values().forEach(n -> sum[0] += Math.max(1, n)); // an empty user still weighs 1
        return true;
      });
      totals.put(s.id(), sum[0]);
      weights += Math.max(0, s.weight());
      progress.update(++done, 2L * online.size(), "summed shard " + s.id());
    }
    long total = totals.values().stream().mapToLong(Long::longValue).sum();
    List<ShardLoad> loads = new ArrayList<>();
    for (Shard s : online) {
      double target = weights > 0 ? total * Math.max(0, s.weight()) / weights : 0;
      loads.add(candidates(keySpace, s, type, moving, totals.get(s.id()), target, maxMoves));
      progress.update(++done, 2L * online.size(), "listed candidates on shard " + s.id());
    }
    return loads;
  }

  /** Lists the shard's keys (in key order) until they cover twice its excess over the target. */
  private ShardLoad candidates(String keySpace, Shard s, KeyType type, Set<String> moving, long load, double target,
      int maxMoves) throws SQLException {
    Map<String, Long> listed = new LinkedHashMap<>();
    long[] covered = {0};
    double wanted = 2 * (load - target);
    if (wanted > 0) {
      scan(keySpace, s.id(), type, moving, page -> {
        for (Map.Entry<String, Long> e : page.entrySet()) {
          listed.put(e.getKey(), Math.max(1, e.getValue()));
          covered[0] += Math.max(1, e.getValue());
          if (covered[0] >= wanted || listed.size() >= 2L * maxMoves) {
            return false;
          }
        }
        return true;
      });
    }
    return new ShardLoad(s.id(), s.weight(), listed, load - covered[0]);
  }

  private KeyType keyType(String keySpace) throws SQLException {
    dev.shardex.vocabulary.KeySpace space = store.keySpace(keySpace);
    if (space == null) {
      throw ShardexError.DIRECTORY_STATE.exception("key space '" + keySpace + "' is not in the directory; add it with 'shardex keyspaces add " + keySpace + "'");
    }
    return space.keyType();
  }

  private void scan(String keySpace, int shardId, KeyType type, Set<String> moving, KeyPages.Sink<Long> sink)
      throws SQLException {
    try (Connection c = shards.connect(shardId)) {
      List<TableShape> shapes = KeyCopier.shapes(c, ShardScan.shardedTables(store, keySpace), shardId);
      KeyPages.ownedLoads(store, keySpace, shardId, c, shapes, type, moving, sink);
    }
  }
}
