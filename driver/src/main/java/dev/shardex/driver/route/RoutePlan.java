package dev.shardex.driver.route;

import dev.shardex.directory.TableDef;
import java.util.List;

/**
 * route stage output: which shards run the statement and how their results combine. {@code write}
 * plans need a writable shard (and a valid lease, checked while routing). A CREATE TABLE carries
 * the declaration to record; a DROP TABLE the names to forget once the DDL has applied.
 */
public record RoutePlan(Fanout fanout, List<Integer> shards, boolean write, TableDef declare, List<String> undeclare) {

  public static RoutePlan one(int shard, boolean write) {
    return new RoutePlan(Fanout.ONE, List.of(shard), write, null, List.of());
  }

  public static RoutePlan of(Fanout fanout, List<Integer> shards, boolean write) {
    if (shards.size() == 1 && fanout != Fanout.DDL) {
      return one(shards.get(0), write);
    }
    return new RoutePlan(fanout, List.copyOf(shards), write, null, List.of());
  }

  public int single() {
    return shards.get(0);
  }
}
