package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;

/** What a move reads of the catalog, from the store (never a cache): a key space's tables, its key type, a shard. */
final class MoveCatalog {
  private MoveCatalog() {}

  /** The key space's SHARDED tables, by name: the order every copy, digest and delete takes them in. */
  static List<TableDef> tables(DirectoryStore store, String keySpace) throws SQLException {
    return store.tables().stream()
        .filter(t -> t.kind() == TableKind.SHARDED && keySpace.equals(t.keySpace()))
        .sorted(Comparator.comparing(TableDef::name))
        .toList();
  }

  static KeyType keyType(DirectoryStore store, String keySpace) throws SQLException {
    KeySpace space = store.keySpace(keySpace);
    if (space == null) {
      throw ShardexError.DIRECTORY_STATE.exception("key space '" + keySpace + "' disappeared from the directory");
    }
    return space.keyType();
  }

  static Shard shard(DirectoryStore store, int id) throws SQLException {
    return store.shards().stream().filter(s -> s.id() == id).findFirst().orElse(null);
  }
}
