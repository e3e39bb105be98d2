package dev.shardex.driver.jdbc;

import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.merge.InMemoryResults;
import dev.shardex.driver.route.RoutePlan;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The generated keys of a multi-row INSERT split over several shards: each shard returns the keys
 * of its share of the rows, and they are put back in the order the statement listed the rows.
 */
final class SplitInsertKeys {
  private final RoutePlan plan;
  private final Object[] keys;

  SplitInsertKeys(RoutePlan plan) {
    this.plan = plan;
    int rows = 0;
    for (int[] share : plan.rows().values()) {
      rows += share.length;
    }
    this.keys = new Object[rows];
  }

  /** The call, copying each shard's generated keys to the rows that shard got. */
  ShardCall wrap(ShardCall call) {
    return (lease, shard, p) -> {
      Statement st = call.run(lease, shard, p);
      int[] share = plan.rowsFor(shard);
      try (ResultSet rs = st.getGeneratedKeys()) {
        for (int j = 0; share != null && j < share.length && rs.next(); j++) {
          synchronized (keys) {
            keys[share[j]] = rs.getObject(1);
          }
        }
      }
      return st;
    };
  }

  /** The keys in row order (a row whose shard generated none is left out). */
  ResultSet inRowOrder() throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    for (Object key : keys) {
      if (key != null) {
        rows.add(new Object[] {key instanceof Number n ? n.longValue() : key});
      }
    }
    return InMemoryResults.of(List.of("GENERATED_KEY"), List.of(Types.BIGINT), rows);
  }
}
