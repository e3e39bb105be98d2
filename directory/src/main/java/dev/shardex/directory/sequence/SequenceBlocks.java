package dev.shardex.directory.sequence;

import dev.shardex.directory.DirectoryOptions;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This driver instance's blocks of sequence ids, and the rule that makes sequence-filled columns
 * behave like AUTO_INCREMENT: no id is handed out at or below a value already in the column.
 *
 * <p>Generated ids come from the instance's current block ({@code [start, end)}, {@code next} the
 * next to hand out). An explicit value (an INSERT that gives the id itself, or the largest id on
 * the shards when a sequence is attached to a column that has rows):
 * <ul>
 *   <li>inside this block, not handed out yet: the block skips past it (no round trip);</li>
 *   <li>inside this block, already handed out: nothing to do (a duplicate id is a unique-key
 *       question, not the sequence's);</li>
 *   <li>at or above the sequence's next value: the directory moves the sequence past it, atomically,
 *       and this instance takes the block that starts after it, so explicit ids inserted in order
 *       (seed data) cost one round trip per block. The ids stepped over form a gap that is never
 *       handed out, so explicit values inside it (known here or read from the directory) are safe;</li>
 *   <li>below the sequence's next value and in no gap: some instance may hold it in an unspent
 *       block, so a TABLE change makes every instance drop its blocks of the table, and the insert
 *       waits until every live instance has applied it (one poll interval; an instance that cannot
 *       poll loses its lease and writes nothing).</li>
 * </ul>
 * What this does not catch: an explicit value equal to an id another instance handed out before
 * the insert (on one server, a duplicate-key error when the column is unique). {@code shardex
 * verify} lists such ids.
 */
final class SequenceBlocks {
  private static final class Block {
    /** Gaps remembered per sequence, at most: past them a value is looked up in the directory again. */
    static final int GAPS = 1_024;
    long start;
    long next;
    long end;
    /** Ids the sequence stepped over and will never hand out (lo -> hi): explicit values there are safe. */
    final java.util.TreeMap<Long, Long> gaps = new java.util.TreeMap<>();

    boolean inGap(long value) {
      Map.Entry<Long, Long> gap = gaps.floorEntry(value);
      return gap != null && gap.getValue() >= value;
    }

    void addGap(long lo, long hi) {
      if (hi >= lo && gaps.size() < GAPS) {
        gaps.put(lo, hi);
      }
    }
  }

  private final SequenceStore store;
  private final DirectoryStore directory;
  private final DirectoryOptions options;
  private final Map<String, Block> blocks = new ConcurrentHashMap<>();

  SequenceBlocks(SequenceStore store, DirectoryStore directory, DirectoryOptions options) {
    this.store = store;
    this.directory = directory;
    this.options = options;
  }

  /** The next {@code n} ids of a sequence, from this instance's current block (a new block when it runs out). */
  long[] next(String sequence, int n, int blockSize) throws SQLException {
    long[] ids = new long[n];
    Block block = block(sequence);
    synchronized (block) {
      for (int i = 0; i < n; i++) {
        if (block.next >= block.end) {
          int size = Math.max(blockSize, n - i);
          take(block, store.nextBlock(sequence, size), size);
        }
        ids[i] = block.next++;
      }
    }
    return ids;
  }

  /** Records values given explicitly for a sequence-filled column of {@code table}: later ids are above them. */
  void explicit(String sequence, String table, long[] values, int blockSize) throws SQLException {
    long change = 0;
    Block block = block(sequence);
    synchronized (block) {
      for (long value : values) {
        if (value >= block.start && value < block.end) {
          block.next = Math.max(block.next, value + 1);
        } else if (value > 0 && !block.inGap(value)) {
          change = Math.max(change, advance(block, sequence, table, value, blockSize));
        }
      }
    }
    if (change > 0) {
      awaitApplied(change, sequence);
    }
  }

  /** Moves the sequence past a value outside this block; returns the change every client must apply first, or 0. */
  private long advance(Block block, String sequence, String table, long value, int blockSize) throws SQLException {
    SequenceStore.Advance moved = store.advancePast(sequence, table, value, blockSize);
    if (moved.start() > 0) {
      take(block, moved.start(), blockSize);
    }
    block.addGap(moved.gapLo(), moved.gapHi());
    return moved.change();
  }

  /** Drops this instance's unspent ids of the table's sequences (another instance gave a value inside them). */
  void drop(String table) {
    String prefix = table + ".";
    blocks.forEach((name, block) -> {
      if (name.startsWith(prefix)) {
        synchronized (block) {
          block.next = block.end;
        }
      }
    });
  }

  private Block block(String sequence) {
    return blocks.computeIfAbsent(sequence, k -> new Block());
  }

  private static void take(Block block, long start, int size) {
    block.start = start;
    block.next = start;
    block.end = start + size;
  }

  /**
   * Waits until every live client has applied {@code change}. A client that has not polled for its
   * lease refuses writes on its own, so one that stays behind for two leases is not waited for.
   */
  private void awaitApplied(long change, String sequence) throws SQLException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(2 * options.leaseMs());
    while (true) {
      List<DirectoryStore.ClientState> behind = directory.clientsBehind(change, options.leaseMs());
      if (behind.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw ShardexError.DIRECTORY_STATE.exception("an explicit id for sequence " + sequence + " lies in ids handed out"
            + " to other driver instances, and " + behind.size() + " live instance(s) did not drop them within "
            + 2 * options.leaseMs() + " ms (first: " + behind.get(0).id() + "); the row was not inserted: retry it");
      }
      try {
        Thread.sleep(Math.max(1, Math.min(5, options.pollMs())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw ShardexError.DIRECTORY_STATE.withCause(e, "interrupted while waiting for instances to drop sequence ids of " + sequence);
      }
    }
  }
}
