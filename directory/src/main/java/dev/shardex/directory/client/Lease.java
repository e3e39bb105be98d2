package dev.shardex.directory.client;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/**
 * The right to route writes from cache.
 *
 * <p>A move freezes a key and waits until every live client has applied that change. A client
 * that cannot reach the directory cannot apply it, so it must stop writing on its own before the
 * mover stops waiting for it: the mover waits {@code leaseMs} plus a margin past the client's last
 * heartbeat, and the client refuses writes once its last successful poll is older than
 * {@code leaseMs}. The lease is renewed with the time the poll <em>started</em>, so a slow poll
 * never stretches it.
 */
public final class Lease {
  private final Ticker ticker;
  private final long leaseNanos;
  private final String directory;
  private volatile long renewedAt;
  private volatile boolean granted;

  public Lease(Ticker ticker, long leaseMs, String directory) {
    this.ticker = ticker;
    this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMs);
    this.directory = directory;
  }

  public long now() {
    return ticker.read();
  }

  public void renew(long pollStartedAt) {
    renewedAt = pollStartedAt;
    granted = true;
  }

  /** Milliseconds since the last successful poll began (what {@link #check} compares), or -1 before the first. */
  public long ageMillis() {
    return granted ? TimeUnit.NANOSECONDS.toMillis(ticker.read() - renewedAt) : -1;
  }

  public boolean valid() {
    return granted && ticker.read() - renewedAt < leaseNanos;
  }

  public void check() throws SQLException {
    if (!valid()) {
      long ageMs = granted ? TimeUnit.NANOSECONDS.toMillis(ticker.read() - renewedAt) : -1;
      throw ShardexError.LEASE_LAPSED.exception(ageMs, TimeUnit.NANOSECONDS.toMillis(leaseNanos), directory);
    }
  }
}
