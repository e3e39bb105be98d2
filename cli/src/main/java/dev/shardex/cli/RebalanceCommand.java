package dev.shardex.cli;

import dev.shardex.directory.move.MoveRunner;
import dev.shardex.directory.move.Mover;
import dev.shardex.directory.move.RebalancePlanner.Plan;
import dev.shardex.directory.move.RebalancePlanner.PlannedMove;
import dev.shardex.directory.move.RebalancePlanner.ShardBalance;
import dev.shardex.directory.move.Rebalancer;
import dev.shardex.vocabulary.KeySpace;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "rebalance", description = {"Even out rows per shard by weight, by moving whole users online.",
    "A user's load is its row count across the key space's tables (at least 1)."},
    subcommands = {RebalanceCommand.PlanCommand.class, RebalanceCommand.Apply.class})
final class RebalanceCommand extends CliCommand.Group {

  abstract static class Planning extends CliCommand {
    @Option(names = "--keyspace", defaultValue = KeySpace.DEFAULT, description = "Key space (default: ${DEFAULT-VALUE}).")
    String keySpace;

    @Option(names = "--tolerance", defaultValue = "0.10",
        description = "How far (fraction) a shard may end from its weighted share (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--max-moves", defaultValue = "10000", description = "Plan at most this many moves (default: ${DEFAULT-VALUE}).")
    int maxMoves;

    Plan plan(CliSession s) throws java.sql.SQLException {
      if (tolerance < 0 || tolerance >= 1) {
        throw usage("--tolerance is a fraction in [0, 1), e.g. 0.10");
      }
      return new Rebalancer(s.store(), s.shards()).plan(keySpace, tolerance, maxMoves, out().progress("scanning"));
    }

    void print(Plan plan, boolean applied) {
      List<List<Object>> shardRows = new ArrayList<>();
      List<Object> shardsJson = new ArrayList<>();
      for (ShardBalance b : plan.shards()) {
        shardRows.add(List.of(b.shardId(), b.weight(), b.before(), Math.round(b.target()), b.after(), b.within(plan.tolerance()) ? "yes" : "NO"));
        shardsJson.add(Json.obj("shard", b.shardId(), "weight", b.weight(), "before", b.before(), "target", b.target(),
            "after", b.after(), "withinTolerance", b.within(plan.tolerance())));
      }
      List<Object> movesJson = new ArrayList<>();
      plan.moves().forEach(m -> movesJson.add(Json.obj("key", m.key(), "from", m.from(), "to", m.to(), "rows", m.rows())));
      out().result(Json.obj("keyspace", keySpace, "tolerance", plan.tolerance(), "balanced", plan.balanced(),
          "rowsMoved", plan.rowsMoved(), "shards", shardsJson, "moves", movesJson), () -> {
            out().table(List.of("SHARD", "WEIGHT", "LOAD", "TARGET", applied ? "PLANNED" : "AFTER", "WITHIN"), shardRows);
            out().line(plan.moves().size() + " move(s), " + plan.rowsMoved() + " row(s) to move"
                + (plan.balanced() ? "" : "; the plan cannot reach the tolerance (users too large?)"));
            plan.moves().stream().limit(20).forEach(m -> out().line("  key " + m.key() + ": shard " + m.from() + " -> " + m.to()
                + " (" + m.rows() + " rows)"));
            if (plan.moves().size() > 20) {
              out().line("  ... and " + (plan.moves().size() - 20) + " more (--json lists them all)");
            }
          });
    }
  }

  @Command(name = "plan", description = "Show which users would move where (nothing changes).")
  static final class PlanCommand extends Planning {
    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        print(plan(s), false);
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "apply", description = "Plan, then run the moves online, --parallel at a time.")
  static final class Apply extends Planning {
    @Mixin
    MoveFlags flags;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session(flags.poolSize())) {
        Plan plan = plan(s);
        if (!out().json()) {
          print(plan, true);
        }
        List<PlannedMove> moves = plan.moves();
        var progress = out().progress("rebalancing");
        int[] done = {0};
        List<MoveRunner.Outcome> outcomes = MoveRunner.runAll(new Mover(s.store(), s.shards(), flags.options(), null), keySpace,
            moves, flags.parallel, o -> {
              synchronized (done) {
                progress.update(++done[0], moves.size(), "key " + o.planned().key());
              }
            });
        return MoveFlags.report(out(), outcomes);
      }
    }
  }
}
