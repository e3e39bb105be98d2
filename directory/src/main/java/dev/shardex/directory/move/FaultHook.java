package dev.shardex.directory.move;

/**
 * Test seam: called right after each journal step is committed. A hook that throws simulates the
 * mover's process dying there: the mover neither rolls back nor journals anything more, it only
 * releases its lock (as a dead process's connection would), so {@code resume} must finish the job.
 */
@FunctionalInterface
public interface FaultHook {
  FaultHook NONE = (step, move) -> {};

  void after(MoveStep step, MoveRecord move);
}
