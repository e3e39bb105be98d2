package dev.shardex.cli;

import dev.shardex.directory.move.MoveRecord;
import dev.shardex.directory.move.MoveRunner;
import dev.shardex.directory.move.RebalancePlanner.PlannedMove;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "users", description = "Where users (keys) live, and moving them online.",
    subcommands = {UsersCommand.Locate.class, UsersCommand.Move.class})
final class UsersCommand extends CliCommand.Group {

  @Command(name = "locate", description = "Show the shard, state and version of a key, and its rows per table there.")
  static final class Locate extends CliCommand {
    @Parameters(index = "0", paramLabel = "KEY")
    String key;

    @Option(names = "--keyspace", defaultValue = KeySpace.DEFAULT, description = "Key space (default: ${DEFAULT-VALUE}).")
    String keySpace;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        Placement p = s.store().lookup(keySpace, key);
        if (p == null) {
          throw ShardexError.DIRECTORY_STATE.exception("key " + key + " of key space " + keySpace
              + " is not in the directory: it has never been written");
        }
        Map<String, Long> rows = rowsOn(s, p.shardId());
        out().result(Json.obj("keyspace", keySpace, "key", key, "shard", p.shardId(), "state", p.state().name(),
            "version", p.version(), "rows", rows), () -> {
              out().line("key " + key + " (key space " + keySpace + "): shard " + p.shardId() + ", " + p.state() + ", version " + p.version());
              rows.forEach((t, n) -> out().line("  " + t + ": " + n + " row(s)"));
            });
      }
      return ShardexCli.OK;
    }

    private Map<String, Long> rowsOn(CliSession s, int shard) throws SQLException {
      Map<String, Long> rows = new LinkedHashMap<>();
      try (Connection c = s.shards().connect(shard)) {
        for (TableDef t : s.store().tables()) {
          if (t.kind() == TableKind.SHARDED && keySpace.equals(t.keySpace())) {
            String sql = "SELECT COUNT(*) FROM `" + t.name().replace("`", "``") + "` WHERE `" + t.keyColumn().replace("`", "``") + "` = ?";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
              ps.setString(1, key);
              try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                rows.put(t.name(), rs.getLong(1));
              }
            }
          }
        }
      }
      return rows;
    }
  }

  @Command(name = "move", description = {"Move one key online, or several.",
      "One: shardex users move KEY --to SHARD; several: shardex users move --from SHARD --count N --to SHARD."})
  static final class Move extends CliCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "KEY")
    String key;

    @Option(names = "--to", required = true, paramLabel = "SHARD")
    int to;

    @Option(names = "--from", paramLabel = "SHARD", description = "Move --count keys off this shard.")
    Integer from;

    @Option(names = "--count", paramLabel = "N")
    Integer count;

    @Option(names = "--keyspace", defaultValue = KeySpace.DEFAULT, description = "Key space (default: ${DEFAULT-VALUE}).")
    String keySpace;

    @Mixin
    MoveFlags flags;

    @Override
    public Integer call() throws Exception {
      if ((key == null) == (from == null)) {
        throw usage("give either KEY, or --from SHARD --count N");
      }
      if (from != null && (count == null || count < 1)) {
        throw usage("--from needs --count N (N >= 1)");
      }
      try (CliSession s = session(flags.poolSize())) {
        if (key != null) {
          MoveRecord m = flags.mover(s, out(), "move " + key).move(keySpace, key, to);
          out().result(MoveFlags.json(m), () -> out().line("Moved key " + key + " (key space " + keySpace + ") from shard "
              + m.from() + " to shard " + m.to() + ": " + m.rowCount() + " row(s), move " + m.id()));
          return ShardexCli.OK;
        }
        List<PlannedMove> planned = new ArrayList<>();
        for (String k : s.store().activeKeysOn(keySpace, from, count)) {
          planned.add(new PlannedMove(k, from, to, 0));
        }
        var progress = out().progress("moving " + planned.size() + " key(s)");
        int[] done = {0};
        List<MoveRunner.Outcome> outcomes = MoveRunner.runAll(new dev.shardex.directory.move.Mover(s.store(), s.shards(),
            flags.options(), null), keySpace, planned, flags.parallel, o -> {
              synchronized (done) {
                progress.update(++done[0], planned.size(), o.planned().key());
              }
            });
        return MoveFlags.report(out(), outcomes);
      }
    }
  }
}
