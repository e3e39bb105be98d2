package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore.ClientState;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Waits until every live client has applied a change. A driver acks a key change only after its
 * writes to that key that were in flight before it have finished, so once this returns for a
 * freeze, nothing writes the key on the source; for a flip, nothing reads it there. Clients whose
 * heartbeat (directory clock) is older than lease + margin are skipped: they have stopped writing.
 */
final class AckWaiter {
  private final DirectoryStore store;
  private final MoveOptions options;

  AckWaiter(DirectoryStore store, MoveOptions options) {
    this.store = store;
    this.options = options;
  }

  /** Returns once no live client is behind {@code change}; ACK_TIMEOUT (HYT00) after the ack timeout. */
  void await(MoveRecord move, long change, String ifTimedOut) throws SQLException {
    long start = System.nanoTime();
    while (true) {
      List<ClientState> behind = store.clientsBehind(change, options.staleAfterMs());
      if (behind.isEmpty()) {
        return;
      }
      long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      if (waitedMs >= options.ackTimeoutMs()) {
        throw ShardexError.ACK_TIMEOUT.exception(move.id(), move.key(), behind.size(), change, options.ackTimeoutMs(),
            describe(behind), ifTimedOut);
      }
      try {
        Thread.sleep(options.pollMs());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw ShardexError.DIRECTORY_STATE.withCause(e, "interrupted while move " + move.id() + " waited for clients");
      }
    }
  }

  private static String describe(List<ClientState> behind) {
    String some = behind.stream().limit(3)
        .map(c -> c.id() + " (" + c.info() + ") at change " + c.appliedChange() + ", heartbeat " + c.heartbeatAgeMs() + " ms ago")
        .collect(Collectors.joining("; "));
    return behind.size() > 3 ? some + "; and " + (behind.size() - 3) + " more" : some;
  }
}
