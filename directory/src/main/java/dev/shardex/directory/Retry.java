package dev.shardex.directory;

import dev.shardex.vocabulary.ErrorKind;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one retry policy: re-runs a transaction that InnoDB chose as a deadlock victim (or timed out
 * on a lock, {@link ErrorKind#transientLock}): it was rolled back whole ({@link DirectoryStore#inTransaction},
 * which retries by this policy itself, or the shard transaction of a move step), so running it again is safe. Moves running in parallel, drivers placing keys and
 * application writers on the source shard touch the same rows. The wait between tries grows
 * exponentially with random jitter (up to about 4 s in all), so two victims of one deadlock do not
 * meet again at the same instant; a busy shard (a burst of writers, a slow disk) gets time to drain.
 */
public final class Retry {
  private static final int ATTEMPTS = 10;
  private static final long FIRST_WAIT_MS = 10;
  private static final long MAX_WAIT_MS = 1_000;

  private Retry() {}

  public interface Body<T> {
    T run() throws SQLException;
  }

  public static <T> T onDeadlock(Body<T> body) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try {
        return body.run();
      } catch (SQLException e) {
        if (!ErrorKind.transientLock(e) || attempt == ATTEMPTS) {
          throw e;
        }
        try {
          Thread.sleep(waitBefore(attempt + 1));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }


  /** Full jitter: a random wait up to an exponentially growing bound. */
  private static long waitBefore(int attempt) {
    long bound = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS << Math.min(attempt - 2, 10));
    return bound / 2 + ThreadLocalRandom.current().nextLong(bound / 2 + 1);
  }
}
