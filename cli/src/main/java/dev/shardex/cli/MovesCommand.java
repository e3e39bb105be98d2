package dev.shardex.cli;

import dev.shardex.directory.move.MoveJournal;
import dev.shardex.directory.move.MoveRecord;
import dev.shardex.directory.move.Mover;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "moves", description = "The move journal: list it, resume or abort interrupted moves.",
    subcommands = {MovesCommand.ListMoves.class, MovesCommand.Resume.class, MovesCommand.Abort.class})
final class MovesCommand extends CliCommand.Group {

  @Command(name = "list", description = "List moves, newest first.")
  static final class ListMoves extends CliCommand {
    @Option(names = "--unfinished", description = "Only moves that need 'moves resume' or 'moves abort'.")
    boolean unfinished;

    @Option(names = "--limit", defaultValue = "50", description = "At most this many (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        List<MoveRecord> moves = new MoveJournal(s.store()).list(unfinished, limit);
        List<List<Object>> rows = new ArrayList<>();
        for (MoveRecord m : moves) {
          String detail = m.detail() == null ? "" : m.detail().length() > 80 ? m.detail().substring(0, 77) + "..." : m.detail();
          rows.add(java.util.Arrays.asList(m.id(), m.keySpace(), m.key(), m.from(), m.to(), m.step(), m.rowCount(), m.updatedAt(), detail));
        }
        out().result(moves.stream().map(MoveFlags::json).toList(),
            () -> out().table(List.of("ID", "KEYSPACE", "KEY", "FROM", "TO", "STEP", "ROWS", "UPDATED", "DETAIL"), rows));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "resume", description = "Finish interrupted moves from their last journaled step (all unfinished ones if no ID is given).")
  static final class Resume extends CliCommand {
    @Parameters(paramLabel = "ID", arity = "0..*")
    List<Long> ids = new ArrayList<>();

    @Mixin
    MoveFlags flags;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session(flags.poolSize())) {
        Mover mover = flags.mover(s, out(), "resume");
        List<Long> todo = new ArrayList<>(ids);
        if (todo.isEmpty()) {
          new MoveJournal(s.store()).list(true, 10_000).forEach(m -> todo.add(0, m.id()));
        }
        List<Object> json = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        int code = ShardexCli.OK;
        for (long id : todo) {
          try {
            MoveRecord m = mover.resume(id);
            json.add(MoveFlags.json(m));
            rows.add(java.util.Arrays.asList(id, m.key(), m.step(), m.detail()));
          } catch (SQLException e) {
            json.add(Json.obj("id", id, "error", e.getMessage()));
            rows.add(java.util.Arrays.asList(id, "", "FAILED", e.getMessage()));
            code = Math.max(code, ShardexCli.exitCode(e));
          }
        }
        out().result(json, () -> {
          if (rows.isEmpty()) {
            out().line("No unfinished moves.");
          } else {
            out().table(List.of("ID", "KEY", "STEP", "DETAIL"), rows);
          }
        });
        return code;
      }
    }
  }

  @Command(name = "abort", description = "Roll back a move that has not flipped yet: the key stays ACTIVE on its source.")
  static final class Abort extends CliCommand {
    @Parameters(paramLabel = "ID")
    long id;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        MoveRecord m = new Mover(s.store(), s.shards()).abort(id);
        out().result(MoveFlags.json(m), () -> out().line("Move " + id + " is " + m.step() + ": " + m.detail()));
      }
      return ShardexCli.OK;
    }
  }
}
