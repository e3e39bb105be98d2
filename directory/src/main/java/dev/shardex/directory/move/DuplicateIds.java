package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.sequence.SequenceStore;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;

/**
 * Ids of a sequence-filled column present on more than one shard: each shard streams its ids in
 * order and a k-way merge finds the repeats, so memory holds one row per shard however large the
 * table is. A repeat whose rows all belong to one key that is being moved is skipped (a move
 * keeps the key's rows on both shards on purpose until it finishes).
 */
final class DuplicateIds {
  /** Repeats listed in a report, at most; the count covers all. */
  static final int LISTED = 100;

  private final DirectoryStore store;
  private final ShardConnector shards;

  DuplicateIds(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
  }

  /** The repeats of every SHARDED table's sequence column (the first {@link #LISTED} per table). */
  List<Verifier.DuplicateId> find(List<Shard> readable, Set<String> movingKeys) throws SQLException {
    SequenceStore sequences = new SequenceStore(store);
    List<Verifier.DuplicateId> out = new ArrayList<>();
    for (TableDef t : store.tables()) {
      String column = t.kind() == TableKind.SHARDED ? sequences.column(t.name()) : null;
      if (column != null) {
        out.addAll(inTable(t, column, readable, movingKeys));
      }
    }
    return out;
  }

  private List<Verifier.DuplicateId> inTable(TableDef t, String column, List<Shard> readable, Set<String> moving) throws SQLException {
    String sql = "SELECT " + quote(column) + ", " + quote(t.keyColumn()) + " FROM " + quote(t.name())
        + " WHERE " + quote(column) + " IS NOT NULL ORDER BY " + quote(column);
    List<Cursor> cursors = new ArrayList<>();
    try {
      PriorityQueue<Cursor> queue = new PriorityQueue<>((a, b) -> Long.compare(a.id, b.id));
      for (Shard s : readable) {
        Cursor c = new Cursor(shards.connect(s.id()), s.id(), sql);
        cursors.add(c);
        if (c.advance()) {
          queue.add(c);
        }
      }
      return merge(t, column, queue, moving);
    } finally {
      for (Cursor c : cursors) {
        c.close();
      }
    }
  }

  private static List<Verifier.DuplicateId> merge(TableDef t, String column, PriorityQueue<Cursor> queue, Set<String> moving)
      throws SQLException {
    List<Verifier.DuplicateId> out = new ArrayList<>();
    while (!queue.isEmpty() && out.size() < LISTED) {
      long id = queue.peek().id;
      List<Integer> on = new ArrayList<>();
      TreeSet<String> keys = new TreeSet<>();
      while (!queue.isEmpty() && queue.peek().id == id) {
        Cursor c = queue.poll();
        if (!on.contains(c.shard)) {
          on.add(c.shard);
        }
        keys.add(c.key);
        if (c.advance()) {
          queue.add(c);
        }
      }
      boolean moveCopy = keys.size() == 1 && moving.contains(keys.first());
      if (on.size() > 1 && !moveCopy) {
        out.add(new Verifier.DuplicateId(t.name(), column, id, on, List.copyOf(keys)));
      }
    }
    return out;
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** One shard's ids, streamed (Connector/J sends rows as they are read with fetch size MIN_VALUE). */
  private static final class Cursor implements AutoCloseable {
    private final Connection connection;
    private final int shard;
    private final Statement statement;
    private final ResultSet rows;
    long id;
    String key;

    Cursor(Connection connection, int shard, String sql) throws SQLException {
      this.connection = connection;
      this.shard = shard;
      this.statement = connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
      statement.setFetchSize(Integer.MIN_VALUE);
      this.rows = statement.executeQuery(sql);
    }

    boolean advance() throws SQLException {
      if (!rows.next()) {
        return false;
      }
      id = rows.getLong(1);
      key = rows.getString(2);
      return true;
    }

    @Override
    public void close() {
      try {
        connection.close(); // closes the streaming result first: Connector/J drains it
      } catch (SQLException ignored) {
        // verification reads only; nothing to undo
      }
    }
  }
}
