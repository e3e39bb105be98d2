package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.catalog.ShardStatus;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Why a move may not start, checked before it is journaled (SHX1601, naming the key and the reason):
 * no such key space or key, an unfinished move of the key, a FROZEN key, a destination that is the
 * key's shard, not in the catalog or not ONLINE, an OFFLINE source, or rows of the key already on the
 * destination.
 */
final class MoveRefusals {
  private final DirectoryStore store;
  private final ShardConnector shards;
  private final MoveJournal journal;
  private final KeyCopier copier;

  MoveRefusals(DirectoryStore store, ShardConnector shards, MoveJournal journal, KeyCopier copier) {
    this.store = store;
    this.shards = shards;
    this.journal = journal;
    this.copier = copier;
  }

  /** The key's placement, when a move of it to {@code to} may start; else the refusal. */
  Placement check(String keySpace, String key, int to) throws SQLException {
    KeySpace space = store.keySpace(keySpace);
    if (space == null) {
      throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "there is no such key space");
    }
    Placement p = store.lookup(keySpace, key);
    if (p == null) {
      throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "the directory does not know this key (it has no rows yet)");
    }
    journal.refuseIfUnfinished(keySpace, key);
    if (p.frozen()) {
      throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "it is FROZEN: another move is running ('shardex moves list')");
    }
    if (p.shardId() == to) {
      throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "it already lives on shard " + to);
    }
    Shard dest = MoveCatalog.shard(store, to);
    if (dest == null || dest.status() != ShardStatus.ONLINE) {
      throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "destination shard " + to
          + (dest == null ? " is not in the catalog" : " is " + dest.status() + "; only ONLINE shards take keys"));
    }
    Shard source = MoveCatalog.shard(store, p.shardId());
    if (source != null && source.status() == ShardStatus.OFFLINE) {
      throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "source shard " + p.shardId() + " is OFFLINE");
    }
    long onDest;
    try (Connection c = shards.connect(to)) {
      KeyCopier.prepare(c);
      onDest = copier.count(c, KeyCopier.shapes(c, MoveCatalog.tables(store, keySpace), to), space.keyType(), key);
    }
    if (onDest > 0) {
      throw ShardexError.MOVE_REFUSED.exception(key, keySpace, "shard " + to + " already holds " + onDest
          + " row(s) of it (left by something outside Shardex); check with 'shardex verify', remove them, then retry");
    }
    return p;
  }
}
