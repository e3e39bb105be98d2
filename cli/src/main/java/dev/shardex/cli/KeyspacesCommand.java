package dev.shardex.cli;

import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "keyspaces", description = "Key spaces: sets of tables sharded by the same key.",
    subcommands = {KeyspacesCommand.Add.class, KeyspacesCommand.ListKeyspaces.class})
final class KeyspacesCommand extends CliCommand.Group {

  @Command(name = "add", description = "Add (or update) a key space.")
  static final class Add extends CliCommand {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Option(names = "--type", defaultValue = "BIGINT", description = "BIGINT or STRING (UUIDs, hex of binary keys, text) (default: ${DEFAULT-VALUE}).")
    KeyType type;

    @Option(names = "--placement", defaultValue = KeySpace.LEAST_LOADED, description = "Policy for new keys (default: ${DEFAULT-VALUE}).")
    String placement;

    @Override
    public Integer call() throws Exception {
      if (!KeySpace.LEAST_LOADED.equals(placement)) {
        throw usage("unknown placement '" + placement + "': the only policy so far is " + KeySpace.LEAST_LOADED);
      }
      try (CliSession s = session()) {
        s.store().addKeySpace(new KeySpace(name, type, placement));
        out().result(Json.obj("name", name, "keyType", type.name(), "placement", placement),
            () -> out().line("Key space " + name + " (" + type + ", " + placement + ")"));
      }
      return ShardexCli.OK;
    }
  }

  @Command(name = "list", description = "List the key spaces.")
  static final class ListKeyspaces extends CliCommand {
    @Override
    public Integer call() throws Exception {
      try (CliSession s = session()) {
        List<KeySpace> spaces = s.store().keySpaces();
        List<List<Object>> rows = new ArrayList<>();
        spaces.forEach(k -> rows.add(List.of(k.name(), k.keyType(), k.placement())));
        out().result(spaces.stream().map(k -> Json.obj("name", k.name(), "keyType", k.keyType().name(), "placement", k.placement())).toList(),
            () -> out().table(List.of("NAME", "KEY TYPE", "PLACEMENT"), rows));
      }
      return ShardexCli.OK;
    }
  }
}
