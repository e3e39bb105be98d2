package dev.shardex.directory.move;

import dev.shardex.directory.move.RebalancePlanner.PlannedMove;
import dev.shardex.vocabulary.ShardexError;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs many moves, a bounded number at a time (each holds a directory connection for its lock and
 * two shard connections while copying). One failed move does not stop the others; each outcome
 * says what happened.
 */
public final class MoveRunner {
  public record Outcome(PlannedMove planned, MoveRecord record, SQLException error) {
    public boolean ok() {
      return error == null && record != null && record.step() == MoveStep.DONE;
    }
  }

  private MoveRunner() {}

  public static List<Outcome> runAll(Mover mover, String keySpace, List<PlannedMove> moves, int parallel,
      Consumer<Outcome> done) throws SQLException {
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(parallel, Math.max(1, moves.size()))), r -> {
      Thread t = new Thread(r, "shardex-mover-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (PlannedMove planned : moves) {
        futures.add(pool.submit(() -> {
          Outcome outcome;
          try {
            outcome = new Outcome(planned, mover.move(keySpace, planned.key(), planned.to()), null);
          } catch (SQLException e) {
            outcome = new Outcome(planned, null, e);
          }
          done.accept(outcome);
          return outcome;
        }));
      }
      List<Outcome> outcomes = new ArrayList<>();
      for (Future<Outcome> f : futures) {
        outcomes.add(f.get());
      }
      return outcomes;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ShardexError.MOVES_INTERRUPTED.withCause(e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof SQLException sql ? sql : ShardexError.MOVE_FAILED.withCause(e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
