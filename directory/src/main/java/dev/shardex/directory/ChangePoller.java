package dev.shardex.directory;

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
final class ChangePoller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ChangePoller.class);
  private static final int BATCH = 1_000;

  private final DirectoryStore store;
  private final String clientId;
  private final Lease lease;
  private final Consumer<Change> apply;
  private final String directory;
  private volatile long applied;
  private boolean failing;
  private ScheduledExecutorService timer;

  ChangePoller(DirectoryStore store, String clientId, Lease lease, long startAt, Consumer<Change> apply, String directory) {
    this.store = store;
    this.clientId = clientId;
    this.lease = lease;
    this.applied = startAt;
    this.apply = apply;
    this.directory = directory;
  }

  long applied() {
    return applied;
  }

  void start(long pollMs) {
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "shardex-directory-poller-" + clientId);
      t.setDaemon(true);
      return t;
    });
    timer.scheduleWithFixedDelay(this::pollQuietly, pollMs, pollMs, TimeUnit.MILLISECONDS);
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

  /** One poll: read and apply every new change, then heartbeat; renews the lease on success. */
  synchronized void poll() throws SQLException {
    long startedAt = lease.now();
    List<Change> changes;
    do {
      changes = store.changesSince(applied, BATCH);
      for (Change change : changes) {
        apply.accept(change);
        applied = change.id();
      }
    } while (changes.size() == BATCH);
    try (Connection c = store.dataSource().getConnection()) {
      store.heartbeat(c, clientId, applied);
    }
    lease.renew(startedAt);
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
