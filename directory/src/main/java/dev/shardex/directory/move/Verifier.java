package dev.shardex.directory.move;

import dev.shardex.directory.DirectoryStore.KeyEntry;
import dev.shardex.directory.DirectoryStore;
import dev.shardex.directory.catalog.Shard;
import dev.shardex.directory.placement.KeyState;
import dev.shardex.directory.placement.Placement;
import dev.shardex.vocabulary.KeySpace;
import dev.shardex.vocabulary.KeyType;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks the shards against the directory: rows whose key the directory places on another shard
 * (orphans), rows whose key it does not know (unowned), GLOBAL tables whose copies differ, ids
 * of sequence-filled columns present on more than one shard, and each lookup's missing, extra and
 * duplicate entries ({@link LookupVerifier}; reported only: {@code shardex lookups verify --repair}
 * repairs them).
 *
 * <p>Repair deletes an orphan only if its owner holds an identical copy, and only while holding
 * the key's key-map row lock with the key ACTIVE on that owner and no move of it unfinished: a
 * move freezing the key waits for the lock, so repair never deletes rows a move is about to
 * need. Keys being moved are skipped (their rows are on two shards on purpose).
 */
public final class Verifier {
  public record Finding(String table, int shard, String key, Integer owner, long rows, String outcome) {}

  public record GlobalDiff(String table, Map<String, List<Integer>> shardsByChecksum) {}

  /** An id of a sequence-filled column found on several shards, with the shard keys of its rows. */
  public record DuplicateId(String table, String column, long id, List<Integer> shards, List<String> keys) {}

  /** Findings listed per kind at most; the counts are complete. */
  public static final int LISTED = 1_000;

  /**
   * What verify found. {@code orphans} and {@code unowned} list the first {@link #LISTED} findings;
   * {@code orphanCount} and {@code unownedCount} count them all.
   */
  public record Report(List<Finding> orphans, List<Finding> unowned, List<GlobalDiff> globals, int repaired,
      List<DuplicateId> duplicates, List<LookupVerifier.Report> lookups, long orphanCount, long unownedCount) {
    public boolean clean() {
      return orphanCount == repaired && unownedCount == 0 && globals.isEmpty() && duplicates.isEmpty()
          && lookups.stream().allMatch(LookupVerifier.Report::clean);
    }
  }

  private final DirectoryStore store;
  private final ShardConnector shards;
  private final KeyCopier copier = new KeyCopier(500);

  public Verifier(DirectoryStore store, ShardConnector shards) {
    this.store = store;
    this.shards = shards;
  }

  public Report verify(boolean repair, Progress progress) throws SQLException {
    List<Shard> readable = store.shards().stream().filter(s -> s.status().acceptsReads()).toList();
    Findings found = new Findings();
    List<KeySpace> spaces = store.keySpaces();
    long total = (long) readable.size() * (spaces.size() + 1);
    long done = 0;
    for (KeySpace space : spaces) {
      Set<String> moving = new HashSet<>(new MoveJournal(store).movingKeys(space.name()));
      List<TableDef> tables = ShardScan.shardedTables(store, space.name());
      for (Shard s : readable) {
        try (Connection c = shards.connect(s.id())) {
          for (TableShape shape : KeyCopier.shapes(c, tables, s.id())) {
            KeyPages.rowsWithOwners(store, space.name(), c, shape, page -> {
              for (Map.Entry<String, KeyPages.Counted> e : page.entrySet()) {
                check(space, shape, s.id(), e.getKey(), e.getValue(), moving, repair, found);
              }
              return true;
            });
          }
        }
        progress.update(++done, total, "key space " + space.name() + ", shard " + s.id());
      }
    }
    List<GlobalDiff> globals = globals(readable);
    progress.update(total, total, "global tables");
    List<DuplicateId> duplicates = duplicates(readable);
    progress.update(total, total, "lookup indexes");
    return new Report(found.orphans, found.unowned, globals, found.repaired, duplicates,
        new LookupVerifier(store, shards).checkAll(), found.orphanCount, found.unownedCount);
  }

  /** One key's rows in one table on one shard against its owner: fine, unowned or an orphan (repaired if asked). */
  private void check(KeySpace space, TableShape shape, int shard, String key, KeyPages.Counted counted, Set<String> moving,
      boolean repair, Findings found) throws SQLException {
    KeyEntry owner = counted.owner();
    if (owner == null) {
      found.unowned(new Finding(shape.table, shard, key, null, counted.rows(), "no owner in the key map"));
    } else if (owner.shardId() != shard && !moving.contains(key) && owner.state() == KeyState.ACTIVE) {
      String outcome = repair ? repair(space, shape, shard, owner.shardId(), key) : "orphan";
      found.orphan(new Finding(shape.table, shard, key, owner.shardId(), counted.rows(), outcome), outcome.startsWith("deleted"));
    }
  }

  /**
   * What verify found, counted in full but listed only up to {@link #LISTED} per kind, so that a
   * shard full of orphans does not fill the heap.
   */
  private static final class Findings {
    final List<Finding> orphans = new ArrayList<>();
    final List<Finding> unowned = new ArrayList<>();
    long orphanCount;
    long unownedCount;
    int repaired;

    void orphan(Finding f, boolean deleted) {
      orphanCount++;
      repaired += deleted ? 1 : 0;
      if (orphans.size() < LISTED) {
        orphans.add(f);
      }
    }

    void unowned(Finding f) {
      unownedCount++;
      if (unowned.size() < LISTED) {
        unowned.add(f);
      }
    }
  }

  /** Ids of sequence-filled columns on more than one shard (a move's copies of its key excepted). */
  private List<DuplicateId> duplicates(List<Shard> readable) throws SQLException {
    Set<String> moving = new HashSet<>();
    for (KeySpace space : store.keySpaces()) {
      moving.addAll(new MoveJournal(store).movingKeys(space.name()));
    }
    return new DuplicateIds(store, shards).find(readable, moving);
  }

  /** Deletes the orphan rows of one key in one table if the owner's rows are identical. */
  private String repair(KeySpace space, TableShape shape, int shard, int owner, String key) throws SQLException {
    KeyType type = space.keyType();
    return store.inTransaction(dir -> {
      Placement p = store.lockKey(dir, space.name(), key); // a move's freeze waits for this lock
      if (p == null || p.frozen() || p.shardId() != owner || new MoveJournal(store).movingKeys(space.name()).contains(key)) {
        return "kept: the key is moving or moved meanwhile";
      }
      try (Connection orphanSide = shards.connect(shard); Connection ownerSide = shards.connect(owner)) {
        KeyCopier.prepare(orphanSide);
        KeyCopier.prepare(ownerSide);
        orphanSide.setAutoCommit(false);
        try {
          Fingerprint here = copier.fingerprint(orphanSide, List.of(shape), type, key, true);
          Fingerprint there = copier.fingerprint(ownerSide, List.of(shape), type, key, false);
          if (!here.equals(there)) {
            orphanSide.rollback();
            return "kept: differs from the owner's copy (" + here + " here, " + there + " on shard " + owner + ")";
          }
          long n = copier.delete(orphanSide, List.of(shape), type, key);
          orphanSide.commit();
          return "deleted " + n + " row(s): the owner holds an identical copy";
        } catch (SQLException | RuntimeException e) {
          KeyCopier.rollbackQuietly(orphanSide, e);
          throw e;
        }
      }
    });
  }

  private List<GlobalDiff> globals(List<Shard> readable) throws SQLException {
    List<GlobalDiff> diffs = new ArrayList<>();
    for (TableDef t : store.tables()) {
      if (t.kind() != TableKind.GLOBAL) {
        continue;
      }
      Map<String, List<Integer>> byChecksum = new TreeMap<>();
      for (Shard s : readable) {
        String sum;
        try (Connection c = shards.connect(s.id())) {
          KeyCopier.prepare(c);
          sum = wholeTable(c, TableShape.load(c, t.name(), null, s.id())).toString();
        } catch (SQLException e) {
          sum = "unreadable: " + e.getMessage();
        }
        byChecksum.computeIfAbsent(sum, x -> new ArrayList<>()).add(s.id());
      }
      if (byChecksum.size() > 1) {
        diffs.add(new GlobalDiff(t.name(), byChecksum));
      }
    }
    return diffs;
  }

  private static Fingerprint wholeTable(Connection c, TableShape shape) throws SQLException {
    RowDigest digest = new RowDigest();
    try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(shape.selectAll())) {
      while (rs.next()) {
        digest.row(rs, shape.columns);
      }
    }
    return digest.finish();
  }
}
