package dev.shardex.directory.placement;

import com.github.benmanes.caffeine.cache.Cache;
import dev.shardex.directory.Directory;
import java.util.List;
import java.util.Map;

/**
 * The marks a read leaves among a statement's guards (beside the write guards of
 * {@link Directory#routeWrite}): what a key read was routed by, checked once the shards answered,
 * and a key-less read in flight. Both end with the read's answer, even inside a transaction.
 */
public final class ReadMarks {
  private ReadMarks() {}

  /** A read's mark among a statement's guards. */
  public interface ReadMark extends AutoCloseable {}

  /** What one key read was routed by: the cached placement object (a change replaces or drops it). */
  record Ticket(Cache<Object, Placement> cache, Object key, Placement placement) implements ReadMark {
    @Override
    public void close() {
      // nothing is held: a ticket is only checked
    }
  }

  /** A key-less read in flight and the rows it must not see: shard -> keys (as the key map spells them). */
  public record ScatterRead(AutoCloseable guard, Map<Integer, List<String>> hidden) implements ReadMark {
    @Override
    public void close() {
      Directory.release(List.of(guard));
    }
  }

  /**
   * Whether every read routed with these tickets still routes the same way, checked after the
   * shards answered. If so, this driver had not applied a change of those keys when the reads
   * finished, so it had not acknowledged a flip, so no mover had deleted the rows they read: the
   * answer is complete. If not (a key changed, or its placement left the cache), the caller
   * re-routes and reads again: a read routed before a flip may have run after the source delete.
   */
  @SuppressWarnings("ReferenceEquality") // a cached placement is a version: the same object or not
  public static boolean current(List<AutoCloseable> marks) {
    for (AutoCloseable m : marks) {
      if (m instanceof Ticket t && t.cache.getIfPresent(t.key) != t.placement) {
        return false;
      }
    }
    return true;
  }

  /** Ends the read marks among {@code marks} and returns the write guards, which a transaction keeps until it ends. */
  public static List<AutoCloseable> release(List<AutoCloseable> marks) {
    Directory.release(marks.stream().filter(m -> m instanceof ReadMark).toList());
    return marks.stream().filter(m -> !(m instanceof ReadMark)).toList();
  }
}
