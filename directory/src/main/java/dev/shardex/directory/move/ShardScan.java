package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;

/** The SHARDED tables of a key space, in name order: what verify and rebalance read on each shard. */
final class ShardScan {
  private ShardScan() {}

  static List<TableDef> shardedTables(DirectoryStore store, String keySpace) throws SQLException {
    return store.tables().stream().filter(t -> t.kind() == TableKind.SHARDED && keySpace.equals(t.keySpace()))
        .sorted(Comparator.comparing(TableDef::name)).toList();
  }
}
