package dev.shardex.cli;

import dev.shardex.directory.lookup.Lookup;
import dev.shardex.directory.lookup.LookupStore;
import dev.shardex.directory.move.LookupVerifier;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "lookups", description = "Lookup indexes: rows of a SHARDED table found by another column (its own id, an email).",
    subcommands = {LookupsCommand.Add.class, LookupsCommand.ListLookups.class, LookupsCommand.Build.class,
        LookupsCommand.Verify.class})
final class LookupsCommand extends CliCommand.Group {

  /** The TABLE COLUMN every lookup command names. */
  static final class Target {
    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Parameters(index = "1", paramLabel = "COLUMN")
    String column;
  }

  @Command(name = "add", description = "Declare a lookup on TABLE.COLUMN; drivers maintain it on every write from their next poll.")
  static final class Add extends CliCommand {
    @Mixin
    Target target;

    @Option(names = "--unique", description = "One row per value across all shards (a PRIMARY or UNIQUE key without the shard key).")
    boolean unique;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        TableDef def = s.store().table(TableDef.normalise(target.table));
        if (def == null || def.kind() != TableKind.SHARDED) {
          throw usage("table " + target.table + " is not a declared SHARDED table ('shardex tables list' shows them)");
        }
        new LookupStore(s.store()).declare(def.name(), target.column, unique);
        out().result(Json.obj("table", def.name(), "column", TableDef.normalise(target.column), "unique", unique),
            () -> out().line("Declared lookup " + def.name() + "." + TableDef.normalise(target.column) + (unique ? " (unique)" : "")
                + "; rows written before now have no entries until they are backfilled"));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "build", description = "Backfill a lookup from the rows already on the shards; values two live rows hold are reported (SHX1608), not overwritten.")
  static final class Build extends CliCommand {
    @Mixin
    Target target;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        Lookup l = lookup(this, s, target.table, target.column);
        var report = new dev.shardex.directory.move.LookupBackfill(s.store(), s.shards()).build(l);
        out().result(Json.obj("rows", report.rows(), "added", report.added(), "conflicts", report.conflicts()), () -> {
          out().line("Read " + report.rows() + " rows, added " + report.added() + " entries to lookup " + l.table() + "." + l.column());
          report.conflicts().forEach(out()::line);
        });
        return report.conflicts().isEmpty() ? ShardexCli.OK : ShardexCli.REFUSED;
      }
    }
  }

  @Command(name = "verify", description = {"Check a lookup against the rows (exit code 2 if anything is wrong).",
      "It lists rows without their entry (missing), entries without their row (extra: a crash or a rollback left",
      "them), and unique values two live rows hold (duplicate)."})
  static final class Verify extends CliCommand {
    @Mixin
    Target target;

    @Option(names = "--repair", description = "Re-add missing entries and delete extra ones, each after checking its row again; duplicates are left.")
    boolean repair;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        Lookup l = lookup(this, s, target.table, target.column);
        LookupVerifier.Report r = new LookupVerifier(s.store(), s.shards()).check(l, repair);
        Map<String, Object> json = LookupHealth.json(r);
        json.put("findings", r.findings().stream().map(LookupHealth::json).toList());
        out().result(json, () -> {
          r.findings().forEach(f -> out().line(LookupHealth.line(f)));
          long unlisted = r.missing() + r.extra() + r.duplicate() - r.findings().size();
          if (unlisted > 0) {
            out().line("... and " + unlisted + " more");
          }
          out().line(LookupHealth.summary(r, repair));
        });
        boolean settled = repair ? r.repairedAll() && r.duplicate() == 0 : r.clean();
        return settled ? ShardexCli.OK : ShardexCli.REFUSED;
      }
    }
  }

  static Lookup lookup(CliCommand command, CliSession s, String table, String column) throws java.sql.SQLException {
    return new LookupStore(s.store()).of(table).stream().filter(x -> x.column().equals(TableDef.normalise(column))).findFirst()
        .orElseThrow(() -> command.usage("no lookup on " + table + "." + column + "; declare it with 'shardex lookups add'"));
  }

  @Command(name = "list", description = "List the lookup indexes and how many entries each holds.")
  static final class ListLookups extends CliCommand {
    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        LookupStore store = new LookupStore(s.store());
        List<List<Object>> rows = new ArrayList<>();
        List<Object> json = new ArrayList<>();
        for (Lookup l : store.all()) {
          long entries = store.count(l);
          rows.add(List.of(l.table(), l.column(), l.unique() ? "yes" : "no", entries));
          json.add(Json.obj("table", l.table(), "column", l.column(), "unique", l.unique(), "entries", entries));
        }
        out().result(json, () -> out().table(List.of("TABLE", "COLUMN", "UNIQUE", "ENTRIES"), rows));
      }
      return ShardexCli.OK;
    }
  }
}
