package dev.shardex.cli;

import dev.shardex.directory.move.CatchUpLimits;
import dev.shardex.directory.move.MoveOptions;
import dev.shardex.directory.move.MoveRecord;
import dev.shardex.directory.move.MoveRunner;
import dev.shardex.directory.move.MoveStep;
import dev.shardex.directory.move.Mover;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options of every command that runs moves, and the shared rendering of their outcomes. */
final class MoveFlags {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--ack-timeout-ms", defaultValue = "10000",
      description = "How long a move waits for live drivers to apply its freeze or flip; a freeze that times out is rolled back (default: ${DEFAULT-VALUE}).")
  long ackTimeoutMs;

  @Option(names = "--lease-ms", defaultValue = "2000",
      description = "The largest shardex.leaseMs of any driver: a driver silent for longer (plus the margin) is not waited for (default: ${DEFAULT-VALUE}).")
  long leaseMs;

  @Option(names = "--margin-ms", defaultValue = "1000", description = "Safety margin past the lease (default: ${DEFAULT-VALUE}).")
  long marginMs;

  @Option(names = "--catch-up-stall-rounds", defaultValue = "" + CatchUpLimits.STALL_ROUNDS,
      description = "Catch-up rounds in a row without the change record's backlog reaching a new low before the move stops (SHX1612, rolled back) rather than freeze with that backlog (default: ${DEFAULT-VALUE}).")
  int catchUpStallRounds;

  @Option(names = "--catch-up-stall-ms", defaultValue = "" + CatchUpLimits.STALL_MS,
      description = "The same bound in time (default: ${DEFAULT-VALUE}).")
  long catchUpStallMs;

  @Option(names = "--catch-up-round-records", defaultValue = "" + CatchUpLimits.ROUND_RECORDS,
      description = "Change records applied per catch-up round (default: ${DEFAULT-VALUE}).")
  int catchUpRoundRecords;

  @Option(names = "--nice-ratio", defaultValue = "" + MoveOptions.NICE_RATIO,
      description = "After each batch the pre-copy and the source delete of a recorded user sleep this many times the batch's time, leaving the shards to their writers (0: full speed; at most 100; default: ${DEFAULT-VALUE}).")
  double niceRatio;

  @Option(names = "--parallel", defaultValue = "4", description = "Moves run at the same time (default: ${DEFAULT-VALUE}).")
  int parallel;

  MoveOptions options() {
    MoveOptions d = MoveOptions.defaults();
    if (catchUpRoundRecords <= 0 || catchUpStallRounds <= 0 || catchUpStallMs <= 0) { // a usage error, not a failure
      throw new CommandLine.ParameterException(spec.commandLine(), "--catch-up-round-records, --catch-up-stall-rounds and"
          + " --catch-up-stall-ms must be positive (given " + catchUpRoundRecords + ", " + catchUpStallRounds + ", "
          + catchUpStallMs + ")");
    }
    if (!(niceRatio >= 0) || niceRatio > MoveOptions.MAX_NICE_RATIO) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--nice-ratio must be from 0 to "
          + MoveOptions.MAX_NICE_RATIO + " (given " + niceRatio + ")");
    }
    return new MoveOptions(ackTimeoutMs, leaseMs, marginMs, d.pollMs(), d.batchSize())
        .withCatchUp(new CatchUpLimits(catchUpRoundRecords, catchUpStallRounds, catchUpStallMs)).withNiceRatio(niceRatio);
  }

  /** Directory connections a session needs: one lock plus one working connection per parallel move. */
  int poolSize() {
    return Math.max(4, 2 * Math.max(1, parallel) + 2);
  }

  Mover mover(CliSession s, Out out, String label) {
    var progress = out.progress(label);
    return new Mover(s.store(), s.shards(), options(), null)
        .onStep(m -> progress.update(m.step().ordinal(), MoveStep.DONE.ordinal(), "move " + m.id() + " " + m.step()));
  }

  static Map<String, Object> json(MoveRecord m) {
    return Json.obj("id", m.id(), "keyspace", m.keySpace(), "key", m.key(), "from", m.from(), "to", m.to(),
        "step", m.step().name(), "rows", m.rowCount(), "detail", m.detail(), "startedAt", m.startedAt(), "updatedAt", m.updatedAt());
  }

  /** Prints many moves' outcomes; returns the exit code (2 if any did not finish). */
  static int report(Out out, List<MoveRunner.Outcome> outcomes) {
    List<Object> json = new ArrayList<>();
    List<List<Object>> rows = new ArrayList<>();
    long ok = outcomes.stream().filter(MoveRunner.Outcome::ok).count();
    for (MoveRunner.Outcome o : outcomes) {
      String what = o.ok() ? o.record().rowCount() + " rows" : o.error() != null ? o.error().getMessage() : o.record().detail();
      json.add(Json.obj("key", o.planned().key(), "from", o.planned().from(), "to", o.planned().to(), "ok", o.ok(),
          "move", o.record() == null ? null : json(o.record()), "error", o.error() == null ? null : o.error().getMessage()));
      rows.add(java.util.Arrays.asList(o.planned().key(), o.planned().from(), o.planned().to(),
          o.ok() ? "DONE" : o.record() != null ? o.record().step() : "FAILED", what));
    }
    out.result(Json.obj("moved", ok, "failed", outcomes.size() - ok, "moves", json), () -> {
      out.table(List.of("KEY", "FROM", "TO", "RESULT", "DETAIL"), rows);
      out.line(ok + " of " + outcomes.size() + " move(s) done");
    });
    return ok == outcomes.size() ? ShardexCli.OK : ShardexCli.REFUSED;
  }
}
