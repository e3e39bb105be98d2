package dev.shardex.directory.change;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.client.Lease;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls the change log, hands each change to the cache, heartbeats the applied change number and
 * renews the lease. One daemon thread per directory client; a failed poll leaves the lease to run
 * out (that is the point) and is logged once per failure streak, not every 100 ms.
 */
public final class ChangePoller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChangePoller.class);
  private static final int BATCH = 1_000;
  /**
   * The poll interval while a move is under way: a mover waits for every client to apply its
   * freeze, and the key's writers wait for the copy under it, so each poll interval there is a
   * write pause.
   */
  static final long HURRIED_MS = 5;

  private final DirectoryStore store;
  private final String clientId;
  private final Lease lease;
  private final Consumer<Change> apply;
  private final java.util.function.Predicate<Change> keyBusy;
  /** KEY changes applied while this driver still had writes in flight to the key: not acked yet. */
  private final java.util.TreeMap<Long, Change> pending = new java.util.TreeMap<>();
  private final String directory;
  private volatile long applied;
  private volatile long lastPollNanos;
  private boolean failing;
  private ScheduledExecutorService timer;

  public ChangePoller(DirectoryStore store, String clientId, Lease lease, long startAt, Consumer<Change> apply,
      java.util.function.Predicate<Change> keyBusy, String directory) {
    this.keyBusy = keyBusy;
    this.store = store;
    this.clientId = clientId;
    this.lease = lease;
    this.applied = startAt;
    this.apply = apply;
    this.directory = directory;
  }

  public long applied() {
    return applied;
  }

  /** Polls every {@code pollMs}, or every {@link #HURRIED_MS} while {@code hurry} says a move is under way. */
  public void start(long pollMs, java.util.function.BooleanSupplier hurry) {
    // anonymous classes, not lambdas: this runs while a fresh JVM opens its first connection
    timer = Executors.newSingleThreadScheduledExecutor(new java.util.concurrent.ThreadFactory() {
      @Override
      public Thread newThread(Runnable r) {
        Thread t = new Thread(r, "shardex-directory-poller-" + clientId);
        t.setDaemon(true);
        return t;
      }
    });
    long tick = Math.min(pollMs, HURRIED_MS);
    long every = TimeUnit.MILLISECONDS.toNanos(pollMs);
    var unused = timer.scheduleWithFixedDelay(new Runnable() { // stopped by shutting the timer down
      @Override
      public void run() {
        if (hurry.getAsBoolean() || System.nanoTime() - lastPollNanos >= every) {
          pollQuietly();
        }
      }
    }, tick, tick, TimeUnit.MILLISECONDS);
  }

  private void pollQuietly() {
    try {
    poll();
      if (failing) {
        LOG.info("Shardex directory {} reachable again", directory);
        failing = false;
      }
    } catch (SQLException | RuntimeException e) {
      if (!failing) {
        LOG.warn("Shardex cannot poll the directory {}: {} (writes stop when the lease lapses)", directory, e.getMessage());
        failing = true;
      }
    }
  }

  /**
   * One poll: read and apply every new change, then heartbeat; renews the lease on success. The
   * heartbeat acknowledges changes only up to the first KEY change whose key still has writes in
   * flight from before it: the mover must not copy a key while such a write may still land.
   */
  public synchronized void poll() throws SQLException {
    lastPollNanos = System.nanoTime();
    long startedAt = lease.now();
    List<Change> changes;
    do {
      changes = store.changesSince(applied, BATCH);
      for (Change change : changes) {
        apply.accept(change);
        applied = change.id();
        if (change.kind() == Change.Kind.KEY && keyBusy.test(change)) {
          pending.put(change.id(), change);
        }
      }
    } while (changes.size() == BATCH);
    for (java.util.Iterator<Change> it = pending.values().iterator(); it.hasNext(); ) {
      if (!keyBusy.test(it.next())) {
        it.remove();
      }
    }
    try (Connection c = store.dataSource().getConnection()) {
      store.heartbeat(c, clientId, acknowledged());
    }
    lease.renew(startedAt);
  }

  /** The highest change id this client vouches for. */
  long acknowledged() {
    return pending.isEmpty() ? applied : pending.firstKey() - 1;
  }

  /**
   * Stops polling; a poll under way finishes first (bounded short: a shutdown hook closes every
   * client one after another), so it does not meet its pool closing under it.
   */
  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
      try {
        timer.awaitTermination(250, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
