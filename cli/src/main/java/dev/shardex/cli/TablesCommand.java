package dev.shardex.cli;

import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.TableDef;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "tables", description = "The table catalog (declarations only: create the tables with DDL through the driver).",
    subcommands = {TablesCommand.Add.class, TablesCommand.ListTables.class})
final class TablesCommand extends CliCommand.Group {

  @Command(name = "add", description = "Declare a table: SHARDED (--key COLUMN [--keyspace NAME]), --global or --single [--shard N].")
  static final class Add extends CliCommand {
    @Parameters(index = "0", paramLabel = "TABLE")
    String name;

    @Option(names = "--key", paramLabel = "COLUMN", description = "The shard key column: the table is SHARDED.")
    String key;

    @Option(names = "--keyspace", defaultValue = KeySpace.DEFAULT, description = "Key space of a SHARDED table (default: ${DEFAULT-VALUE}).")
    String keySpace;

    @Option(names = "--global", description = "A full copy on every shard.")
    boolean global;

    @Option(names = "--single", description = "Lives on one home shard.")
    boolean single;

    @Option(names = "--shard", description = "Home shard of a SINGLE table (default: the lowest shard id).")
    Integer shard;

    @Option(names = "--sequence", paramLabel = "COLUMN",
        description = "Fill this column of a SHARDED table from a directory sequence (ids unique across shards); it starts after the largest value on any shard.")
    String sequence;

    @Override
    public Integer call() throws Exception {
      int kinds = (key != null ? 1 : 0) + (global ? 1 : 0) + (single ? 1 : 0);
      if (kinds != 1) {
        throw usage("give exactly one of --key COLUMN (SHARDED), --global or --single");
      }
      if (shard != null && !single) {
        throw usage("--shard only applies to --single tables");
      }
      if (sequence != null && key == null) {
        throw usage("--sequence only applies to SHARDED tables (--key COLUMN)");
      }
      try (CliSession s = session()) {
        TableDef def;
        if (key != null) {
          def = TableDef.sharded(name, keySpace, key);
        } else if (global) {
          def = TableDef.global(name);
        } else {
          int home = shard != null ? shard
              : s.store().shards().stream().mapToInt(x -> x.id()).min().orElseThrow(() -> usage("no shards yet: add one first"));
          def = TableDef.single(name, home);
        }
        s.store().declareTable(def);
        long after = sequence == null ? 0 : attachSequence(s, def, sequence);
        out().result(json(def), () -> out().line("Declared " + describe(def)
            + (sequence == null ? "" : ", " + sequence + " filled from a sequence starting after " + after)));
      }
      return ShardexCli.OK;
    }
  }

  /** Attaches the sequence over the table's existing rows; returns the largest value found on the shards. */
  private static long attachSequence(CliSession s, TableDef def, String column) throws java.sql.SQLException {
    var sequences = new dev.shardex.directory.sequence.SequenceStore(s.store());
    sequences.declareColumn(def.name(), column);
    List<Integer> shards = s.store().shards().stream().filter(x -> x.status().acceptsReads()).map(x -> x.id()).toList();
    long largest = dev.shardex.directory.sequence.SequenceStore.largestOnShards(def.name(), column, shards, s.shards());
    sequences.startAfter(def.name(), column, largest);
    return largest;
  }

  @Command(name = "list", description = "List the declared tables.")
  static final class ListTables extends CliCommand {
    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        List<TableDef> tables = s.store().tables();
        List<List<Object>> rows = new ArrayList<>();
        for (TableDef t : tables) {
          rows.add(java.util.Arrays.asList(t.name(), t.kind(), t.keySpace(), t.keyColumn(), t.homeShard()));
        }
        out().result(tables.stream().map(TablesCommand::json).toList(),
            () -> out().table(List.of("TABLE", "KIND", "KEYSPACE", "KEY", "HOME"), rows));
      }
      return ShardexCli.OK;
    }
  }

  static Object json(TableDef t) {
    return Json.obj("name", t.name(), "kind", t.kind().name(), "keyspace", t.keySpace(), "key", t.keyColumn(), "homeShard", t.homeShard());
  }

  static String describe(TableDef t) {
    return switch (t.kind()) {
      case SHARDED -> t.name() + " SHARDED by " + t.keyColumn() + " in key space " + t.keySpace();
      case GLOBAL -> t.name() + " GLOBAL (a copy on every shard)";
      case SINGLE -> t.name() + " SINGLE on shard " + t.homeShard();
    };
  }
}
