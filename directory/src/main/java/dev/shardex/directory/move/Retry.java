package dev.shardex.directory.move;

import java.sql.SQLException;

/**
 * Re-runs a directory transaction that InnoDB chose as a deadlock victim (or timed out on a lock):
 * it was rolled back whole ({@code DirectoryStore.inTransaction}), so running it again is safe. Moves running in parallel, and drivers
 * placing keys, touch the same shard and counter rows.
 */
final class Retry {
  private static final int ATTEMPTS = 5;

  private Retry() {}

  interface Body<T> {
    T run() throws SQLException;
  }

  static <T> T onDeadlock(Body<T> body) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try {
        return body.run();
      } catch (SQLException e) {
        boolean transientLock = "40001".equals(e.getSQLState()) || e.getErrorCode() == 1213 || e.getErrorCode() == 1205;
        if (!transientLock || attempt == ATTEMPTS) {
          throw e;
        }
        try {
          Thread.sleep(10L * attempt);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

}
