package dev.shardex.driver.merge;

import dev.shardex.driver.sql.MergeSpec.SortKey;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A k-way merge of shard result sets that each arrive sorted by the same keys: streams the rows in
 * the order one server would give, never holding more than one row per shard. OFFSET rows are
 * skipped and LIMIT rows returned here, after the merge (each shard was asked for OFFSET+LIMIT).
 * Without sort keys it returns the shards' rows one shard after the other.
 */
public final class SortedMergeResultSet extends DelegatingResultSet {
  private final List<ShardResultSet> parts;
  private final List<SortKey> keys;
  private final boolean[] caseInsensitive;
  private final ResultSetMetaData meta;
  private final Statement owner;
  private final PriorityQueue<Cursor> queue;
  private final long offset;
  private final long limit;
  private Cursor current;
  private boolean started;
  private long returned;
  private boolean closed;

  private final class Cursor {
    final int order;
    final ShardResultSet rs;
    Object[] key;

    Cursor(int order, ShardResultSet rs) {
      this.order = order;
      this.rs = rs;
    }

    boolean advance() throws SQLException {
      if (!rs.next()) {
        rs.close();
        return false;
      }
      key = new Object[keys.size()];
      for (int i = 0; i < key.length; i++) {
        key[i] = rs.getObject(keys.get(i).column());
      }
      return true;
    }
  }

  /** The shards' rows one shard after the other: a merge with no sort keys. */
  public static SortedMergeResultSet concat(List<ShardResultSet> parts, Statement owner) throws SQLException {
    return new SortedMergeResultSet(parts, List.of(), new boolean[0], parts.get(0).getMetaData(), owner, 0, -1);
  }

  public SortedMergeResultSet(List<ShardResultSet> parts, List<SortKey> keys, boolean[] caseInsensitive, ResultSetMetaData meta,
      Statement owner, long offset, long limit) {
    this.parts = parts;
    this.keys = keys;
    this.caseInsensitive = caseInsensitive;
    this.meta = meta;
    this.owner = owner;
    this.offset = offset;
    this.limit = limit;
    this.queue = new PriorityQueue<>(Math.max(1, parts.size()), this::compare);
  }

  /** The shards' result sets of a concatenation not yet read, for a merge that orders them itself. */
  public List<ShardResultSet> unread() {
    if (started || !keys.isEmpty()) {
      throw new IllegalStateException("only an unread concatenation hands over its parts");
    }
    return parts;
  }

  private int compare(Cursor a, Cursor b) {
    for (int i = 0; i < keys.size(); i++) {
      SortKey k = keys.get(i);
      int c = ValueOrder.compare(a.key[i], b.key[i], caseInsensitive[k.column() - 1]);
      if (c != 0) {
        return k.ascending() ? c : -c;
      }
    }
    return Integer.compare(a.order, b.order);
  }

  @Override
  protected ResultSet rs() throws SQLException {
    if (current == null) {
      throw dev.shardex.vocabulary.ShardexError.NO_CURRENT_ROW.exception();
    }
    return current.rs;
  }

  @Override
  public boolean next() throws SQLException {
    if (!started) {
      started = true;
      for (int i = 0; i < parts.size(); i++) {
        Cursor c = new Cursor(i, parts.get(i));
        if (c.advance()) {
          queue.add(c);
        }
      }
      for (long skipped = 0; skipped < offset && step(); skipped++) {
        // OFFSET applies to the merged order
      }
    }
    if (limit >= 0 && returned >= limit) {
      current = null;
      return false;
    }
    boolean more = step();
    if (more) {
      returned++;
    }
    return more;
  }

  private boolean step() throws SQLException {
    if (current != null && current.advance()) {
      queue.add(current);
    }
    current = queue.poll();
    return current != null;
  }

  @Override
  public ResultSetMetaData getMetaData() {
    return meta;
  }

  @Override
  public Statement getStatement() {
    return owner;
  }

  @Override
  public int getType() {
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() throws SQLException {
    if (!closed) {
      closed = true;
      Closing.closeAll(new ArrayList<>(parts));
    }
  }
}
