package dev.shardex.directory.placement;

import com.github.benmanes.caffeine.cache.Cache;
import dev.shardex.directory.Directory;
import java.util.List;

/**
 * The marks one statement's key routing leaves, kept in reusable arrays so routing a statement
 * allocates nothing: the writes it has in flight ({@link Directory#routeWrite}) and what each key
 * read was routed by ({@link Directory#routeRead}). One owner (a connection's route context) uses
 * it for one statement at a time: route, run, {@link #releaseWrites} (or hand the writes to the
 * transaction), {@link #current}, then {@link #clear} before the next statement.
 */
public final class KeyMarks {
  private InFlightWrites inFlight;
  private int writes;
  private int[] tokens = new int[2];
  private String[] writeSpaces = new String[2];
  private Object[] writeKeys = new Object[2];
  private long[] appliedAtStart = new long[2];
  private int reads;
  private Object[] caches = new Object[2];
  private Object[] readKeys = new Object[2];
  private Placement[] placements = new Placement[2];

  void addWrite(InFlightWrites owner, int token, String keySpace, Object key, long applied) {
    if (writes == tokens.length) {
      appliedAtStart = java.util.Arrays.copyOf(appliedAtStart, writes * 2);
      tokens = java.util.Arrays.copyOf(tokens, writes * 2);
      writeSpaces = java.util.Arrays.copyOf(writeSpaces, writes * 2);
      writeKeys = java.util.Arrays.copyOf(writeKeys, writes * 2);
    }
    inFlight = owner;
    tokens[writes] = token;
    appliedAtStart[writes] = applied;
    writeSpaces[writes] = keySpace;
    writeKeys[writes++] = key;
  }

  void addRead(Cache<Object, Placement> cache, Object key, Placement placement) {
    if (reads == caches.length) {
      caches = java.util.Arrays.copyOf(caches, reads * 2);
      readKeys = java.util.Arrays.copyOf(readKeys, reads * 2);
      placements = java.util.Arrays.copyOf(placements, reads * 2);
    }
    caches[reads] = cache;
    readKeys[reads] = key;
    placements[reads++] = placement;
  }

  public boolean isEmpty() {
    return writes == 0 && reads == 0;
  }

  public boolean hasWrites() {
    return writes > 0;
  }

  /**
   * Whether every key read still routes the way it was routed (see {@link ReadMarks#current}): if a
   * key's placement changed or left the cache, the caller routes and reads again.
   */
  @SuppressWarnings({"unchecked", "ReferenceEquality"}) // a cached placement is a version: the same object or not
  public boolean current() {
    for (int i = 0; i < reads; i++) {
      if (((Cache<Object, Placement>) caches[i]).getIfPresent(readKeys[i]) != placements[i]) {
        return false;
      }
    }
    return true;
  }

  /** Ends the writes in flight (the write has finished in autocommit, or routing failed). Never throws. */
  public void releaseWrites() {
    for (int i = 0; i < writes; i++) {
      inFlight.end(tokens[i]);
      writeSpaces[i] = null;
      writeKeys[i] = null;
    }
    writes = 0;
  }

  /**
   * Hands the writes in flight over as guard objects held per exact key (a transaction keeps them
   * until it ends, or a caller wants a plan's guard list); this object no longer ends them.
   */
  public void moveWritesTo(java.util.Collection<AutoCloseable> out) {
    for (int i = 0; i < writes; i++) {
      out.add(inFlight.adopt(writeSpaces[i], writeKeys[i], appliedAtStart[i], tokens[i]));
      writeSpaces[i] = null;
      writeKeys[i] = null;
    }
    writes = 0;
  }

  /** Hands everything over as objects: the writes as guards, the reads as tickets ({@link ReadMarks}). */
  @SuppressWarnings("unchecked")
  public void moveTo(List<AutoCloseable> out) {
    moveWritesTo(out);
    for (int i = 0; i < reads; i++) {
      out.add(new ReadMarks.Ticket((Cache<Object, Placement>) caches[i], readKeys[i], placements[i]));
    }
    clearReads();
  }

  /** Ends any writes still in flight and forgets the reads: ready for the next statement. */
  public void clear() {
    releaseWrites();
    clearReads();
  }

  private void clearReads() {
    for (int i = 0; i < reads; i++) {
      caches[i] = null;
      readKeys[i] = null;
      placements[i] = null;
    }
    reads = 0;
  }
}
