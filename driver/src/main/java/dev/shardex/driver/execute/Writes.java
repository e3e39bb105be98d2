package dev.shardex.driver.execute;

import dev.shardex.directory.catalog.Replica;
import java.sql.Connection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Read-your-writes for one logical connection that reads replicas: its last write on each shard with
 * replicas, and what a replica read of that shard must therefore wait for.
 *
 * <p>A write is remembered when it is known to have committed (its autocommit lease closed, or its
 * transaction's commit returned), with the GTID its OK packet reported ({@link WriteGtid}) and the
 * time. A replica has applied it when any of these holds, and then the read needs no wait:
 * <ul>
 *   <li>the read already waited for it on that replica ({@link #caughtUp});
 *   <li>the probe found the replica covering a primary position read after the write's time (such a
 *       position includes every commit finished before it was read, see {@link ReplicaHealth#covers}).
 * </ul>
 * Otherwise the read waits for the write's GTID, or, when the OK packet reported none (a transaction
 * committed by another connection's XA COMMIT, a server that does not report it), for the newest
 * probe position read after the write; when there is none yet (a read within one probe of the write)
 * the read goes to the primary ({@link #UNKNOWN}).
 */
final class Writes {
  /** Returned by {@link #waitFor} when the write's position is not known yet: the read goes to the primary. */
  static final String UNKNOWN = "";

  /** A write known to have committed: its GTID (or null), when, and the replica that has applied it (0: none known). */
  private static final class Write {
    final String gtid;
    final long nanos;
    volatile int appliedBy;

    Write(String gtid, long nanos) {
      this.gtid = gtid;
      this.nanos = nanos;
    }
  }

  private final Map<Integer, Write> byShard = new ConcurrentHashMap<>();
  /** Shards the running transaction wrote (the connection's own thread only). */
  private final Set<Integer> inTransaction = new HashSet<>();
  /** The wait's timeout as MASTER_GTID_WAIT takes it (seconds, to the millisecond). */
  final String seconds;

  Writes(long waitMs) {
    this.seconds = String.format(Locale.ROOT, "%d.%03d", waitMs / 1000, waitMs % 1000);
  }

  void wrote(int shard, String gtid) {
    byShard.put(shard, new Write(gtid, System.nanoTime()));
  }

  void writing(int shard) {
    inTransaction.add(shard);
  }

  void ended(boolean commit, Map<Integer, Connection> pinned, ReplicaReads reads) {
    if (commit) {
      for (int shard : inTransaction) {
        Connection c = pinned.get(shard);
        if (c != null) {
          reads.wrote(shard, c);
        }
      }
    }
    inTransaction.clear();
  }

  /** What a read on replica {@code r} must wait for: null (nothing), a GTID position, or {@link #UNKNOWN}. */
  String waitFor(int shard, Replica r, ReplicaHealth h) {
    Write w = byShard.isEmpty() ? null : byShard.get(shard);
    if (w == null || w.appliedBy == r.replicaId() || h.covers(r, w.nanos)) {
      return null;
    }
    if (w.gtid != null) {
      return w.gtid;
    }
    String after = h.positionAfter(shard, w.nanos);
    return after != null && WriteGtid.valid(after) ? after : UNKNOWN;
  }

  /** The replica answered after waiting: it has applied the shard's write. */
  void caughtUp(Replica r) {
    Write w = byShard.get(r.shardId());
    if (w != null) {
      w.appliedBy = r.replicaId();
    }
  }
}
