package dev.shardex.cli;

import dev.shardex.directory.Lookup;
import dev.shardex.directory.LookupStore;
import dev.shardex.directory.TableDef;
import dev.shardex.directory.TableKind;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "lookups", description = "Lookup indexes: rows of a SHARDED table found by another column (its own id, an email).",
    subcommands = {LookupsCommand.Add.class, LookupsCommand.ListLookups.class})
final class LookupsCommand extends CliCommand.Group {

  @Command(name = "add", description = "Declare a lookup on TABLE.COLUMN; drivers maintain it on every write from their next poll.")
  static final class Add extends CliCommand {
    @Parameters(index = "0", paramLabel = "TABLE")
    String table;

    @Parameters(index = "1", paramLabel = "COLUMN")
    String column;

    @Option(names = "--unique", description = "One row per value across all shards (a PRIMARY or UNIQUE key without the shard key).")
    boolean unique;

    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        TableDef def = s.store().table(TableDef.normalise(table));
        if (def == null || def.kind() != TableKind.SHARDED) {
          throw usage("table " + table + " is not a declared SHARDED table ('shardex tables list' shows them)");
        }
        new LookupStore(s.store()).declare(def.name(), column, unique);
        out().result(Json.obj("table", def.name(), "column", TableDef.normalise(column), "unique", unique),
            () -> out().line("Declared lookup " + def.name() + "." + TableDef.normalise(column) + (unique ? " (unique)" : "")
                + "; rows written before now have no entries until they are backfilled"));
      }
      return ShardexCli.OK;
    }
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
