package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Closing;
import dev.shardex.driver.merge.MergedMetaData;
import dev.shardex.driver.merge.ShardResultSet;
import dev.shardex.driver.merge.SortedMergeResultSet;
import dev.shardex.driver.sql.MergeSpec.SortKey;
import dev.shardex.driver.sql.ValueSource;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * A k-way merge of shard rows that each shard sorted by the same keys, streamed: never more than
 * one row per shard held. OFFSET and LIMIT apply to the merged order (each shard was asked for
 * LIMIT n+m), and the hidden trailing columns are cut off. Without keys: the shards' rows in turn.
 */
final class MergeSort implements Operator {
  private final Operator input;
  private final List<SortKey> keys;
  private final ValueSource offset;
  private final ValueSource limit;
  private final int hidden;

  MergeSort(Operator input, List<SortKey> keys, ValueSource offset, ValueSource limit, int hidden) {
    this.input = input;
    this.keys = keys;
    this.offset = offset;
    this.limit = limit;
    this.hidden = hidden;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    List<ShardResultSet> parts = ((SortedMergeResultSet) run.open(input)).unread();
    try {
      ResultSetMetaData meta = parts.get(0).getMetaData();
      int total = meta.getColumnCount();
      int visible = total - hidden;
      List<SortKey> order = Sort.resolve(keys, visible, total);
      boolean[] ci = new Rows(List.of(), meta).caseInsensitive();
      return new SortedMergeResultSet(parts, order, ci, new MergedMetaData(meta, visible, null, null), run.owner(),
          Values.whole(offset, run.values(), 0), Values.whole(limit, run.values(), -1));
    } catch (SQLException | RuntimeException e) {
      try {
        Closing.closeAll(parts);
      } catch (SQLException ignored) {
        // the refusal is the error worth reporting
      }
      throw e;
    }
  }

  @Override
  public String describe() {
    return (keys.isEmpty() ? "Concatenate the shards' rows" : "MergeSort: k-way merge of the shards' sorted rows by "
        + Sort.text(keys)) + (offset != null || limit != null ? ", OFFSET/LIMIT applied to the merged order" : "")
        + (hidden > 0 ? ", " + hidden + " hidden column" + (hidden == 1 ? "" : "s") + " cut" : "");
  }

  @Override
  public List<Operator> inputs() {
    return List.of(input);
  }
}
