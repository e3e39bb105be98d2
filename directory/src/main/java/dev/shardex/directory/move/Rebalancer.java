package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.DirectoryStore.KeyEntry;
import dev.shardex.directory.KeyState;
import dev.shardex.directory.Shard;
import dev.shardex.directory.ShardStatus;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.move.RebalancePlanner.Plan;
import dev.shardex.directory.move.RebalancePlanner.ShardLoad;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Scans a key space's loads (rows per key, per ONLINE shard) and hands them to the planner. Keys
 * being moved, and shards that are READ_ONLY or OFFLINE, are left out: they neither give nor take.
 */
public final class Rebalancer {
  private final DirectoryStore store;
  private final ShardConnector shards;

  public Rebalancer(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
  }

  public Plan plan(String keySpace, double tolerance, int maxMoves, Progress progress) throws SQLException {
    return RebalancePlanner.plan(loads(keySpace, progress), tolerance, maxMoves);
  }

  public List<ShardLoad> loads(String keySpace, Progress progress) throws SQLException {
    List<Shard> online = store.shards().stream().filter(s -> s.status() == ShardStatus.ONLINE).toList();
    Map<Integer, Map<String, Long>> keysByShard = new HashMap<>();
    online.forEach(s -> keysByShard.put(s.id(), new HashMap<>()));
    for (KeyEntry e : ShardScan.keyMap(store, keySpace).values()) {
      Map<String, Long> keys = keysByShard.get(e.shardId());
      if (keys != null && e.state() == KeyState.ACTIVE) {
        keys.put(e.key(), 0L);
      }
    }
    new MoveJournal(store).movingKeys(keySpace).forEach(k -> keysByShard.values().forEach(m -> m.remove(k)));
    List<TableDef> tables = ShardScan.shardedTables(store, keySpace);
    List<ShardLoad> loads = new ArrayList<>();
    int done = 0;
    for (Shard s : online) {
      Map<String, Long> keys = keysByShard.get(s.id());
      try (Connection c = shards.connect(s.id())) {
        for (TableShape shape : KeyCopier.shapes(c, tables, s.id())) {
          // rows of keys this shard does not own are orphans: 'verify' reports them, they weigh nothing here
          ShardScan.rowsPerKey(c, shape).forEach((k, n) -> keys.computeIfPresent(k, (x, old) -> old + n));
        }
      }
      loads.add(new ShardLoad(s.id(), s.weight(), keys));
      progress.update(++done, online.size(), "scanned shard " + s.id());
    }
    return loads;
  }
}
