package dev.shardex.cli;

import dev.shardex.directory.DirectorySchema;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "init", description = "Create the directory schema (idempotent) and the BIGINT key space 'default'.")
final class InitCommand extends CliCommand {
  @Option(names = "--no-default-keyspace", description = "Do not create the key space 'default'.")
  boolean noDefault;

  @Override
  public Integer call() throws Exception {
    try (CliSession s = session()) {
      s.store().init();
      boolean created = false;
      if (!noDefault && s.store().keySpace(KeySpace.DEFAULT) == null) {
        s.store().addKeySpace(new KeySpace(KeySpace.DEFAULT, KeyType.BIGINT, KeySpace.LEAST_LOADED));
        created = true;
      }
      boolean defaultCreated = created;
      out().result(Json.obj("directory", s.display, "schemaVersion", DirectorySchema.VERSION, "defaultKeySpaceCreated", created),
          () -> out().line("Directory schema version " + DirectorySchema.VERSION + " ready at " + s.display
              + (defaultCreated ? "; created key space 'default' (BIGINT)" : "")));
    }
    return ShardexCli.OK;
  }
}
