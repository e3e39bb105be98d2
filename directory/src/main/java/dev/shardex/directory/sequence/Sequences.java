package dev.shardex.directory.sequence;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.TableDef;
import java.sql.SQLException;
import java.util.Optional;

/**
 * One driver instance's sequences: which column of a table a sequence fills (cached, absent ones too,
 * dropped by the table's change), and the blocks of ids this instance reserved ({@link SequenceBlocks}).
 */
public final class Sequences {
  private final SequenceStore store;
  private final Cache<String, Optional<String>> columns = Caffeine.newBuilder().maximumSize(100_000).build();
  private final SequenceBlocks blocks;

  public Sequences(DirectoryStore directory, DirectoryOptions options) {
    this.store = new SequenceStore(directory);
    this.blocks = new SequenceBlocks(store, directory, options);
  }

  /** The column INSERTs into this table get filled from a sequence when they omit it, or null. */
  public String column(String table) throws SQLException {
    String key = TableDef.normalise(table);
    Optional<String> cached = columns.getIfPresent(key);
    if (cached == null) {
      cached = Optional.ofNullable(store.column(key));
      columns.put(key, cached);
    }
    return cached.orElse(null);
  }

  public void declareColumn(String table, String column) throws SQLException {
    store.declareColumn(table, column);
    columns.invalidate(TableDef.normalise(table));
  }

  /** The next {@code n} ids of a sequence, from this instance's current block (a new block when it runs out). */
  public long[] next(String sequence, int n, int blockSize) throws SQLException {
    return blocks.next(sequence, n, blockSize);
  }

  /**
   * Values an INSERT gives explicitly for the sequence-filled column of {@code table}: the sequence
   * moves past them before the row is written (see {@link SequenceBlocks}).
   */
  public void explicit(String table, String column, long[] values, int blockSize) throws SQLException {
    String t = TableDef.normalise(table);
    blocks.explicit(t + "." + TableDef.normalise(column), t, values, blockSize);
  }

  /** Starts the sequence of {@code table.column} after {@code largest}, the largest value on any shard. */
  public void startAfter(String table, String column, long largest) throws SQLException {
    store.startAfter(table, column, largest);
  }

  /** Drops what is cached for a table that changed (its column, its blocks). */
  public void forget(String table) {
    columns.invalidate(table);
    blocks.drop(table);
  }
}
