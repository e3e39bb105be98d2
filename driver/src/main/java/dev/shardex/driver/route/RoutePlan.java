package dev.shardex.driver.route;

import dev.shardex.vocabulary.TableDef;
import java.util.List;

/**
 * route stage output: which shards run the statement and how their results combine. {@code write}
 * plans need a writable shard (and a valid lease, checked while routing). A CREATE TABLE carries
 * the declaration to record; a DROP TABLE the names to forget once the DDL has applied. A write
 * plan carries the in-flight guards of its keys (see Directory.routeWrite).
 */
public record RoutePlan(
    Fanout fanout, List<Integer> shards, boolean write, TableDef declare, List<String> undeclare,
    List<AutoCloseable> guards, java.util.Map<Integer, int[]> rows, Fill fill, InSplit inSplit) {

  /** The key's IN list split by owner: which of its {@code size} values (0-based) each shard keeps. */
  public record InSplit(String column, int size, java.util.Map<Integer, int[]> keep) {}

  /**
   * A sequence-filled column: the column and each row's new id. {@code replaceAt} is -1 when the
   * INSERT omitted the column (it is added), else the position of the NULL it gave (replaced). A
   * row that gave its own value has {@link #KEEP} instead of an id.
   */
  public record Fill(String column, long[] ids, int replaceAt) {
    public static final long KEEP = Long.MIN_VALUE;

    public Fill(String column, long[] ids) {
      this(column, ids, -1);
    }
  }

  public RoutePlan(Fanout fanout, List<Integer> shards, boolean write, TableDef declare, List<String> undeclare) {
    this(fanout, shards, write, declare, undeclare, List.of(), null, null, null);
  }

  /** The same plan with the ids a sequence-filled column gets. */
  public RoutePlan withFill(Fill f) {
    return new RoutePlan(fanout, shards, write, declare, undeclare, guards, rows, f, inSplit);
  }

  /** The text and parameters this shard gets: the statement, a split INSERT's share, plus filled ids. */
  /** Whether every shard gets the statement's own text and parameters (no split, filled ids or hidden rows). */
  public boolean asWritten() {
    return inSplit == null && rows == null && fill == null && guards.isEmpty();
  }

  public dev.shardex.driver.sql.ShardSql sqlFor(String sql, int shard) throws java.sql.SQLException {
    if (inSplit != null && inSplit.keep().containsKey(shard)) {
      dev.shardex.driver.sql.InListSplitter list = dev.shardex.driver.sql.InListSplitter.of(sql, inSplit.column(), inSplit.size());
      return list == null ? dev.shardex.driver.sql.ShardSql.whole(sql) : list.keep(inSplit.keep().get(shard));
    }
    int[] share = rowsFor(shard);
    if (share == null && fill == null) {
      return dev.shardex.driver.sql.ShardSql.whole(hide(sql, shard));
    }
    if (fill != null && dev.shardex.driver.sql.InsertSplitter.isSetForm(sql)) {
      return dev.shardex.driver.sql.SetInsertFill.fill(sql, fill.column(), fill.ids()[0], fill.replaceAt());
    }
    return dev.shardex.driver.sql.InsertSplitter.of(sql).rewrite(share, fill == null ? null : fill.column(),
        fill == null ? null : fill.ids(), fill == null ? -1 : fill.replaceAt());
  }

  /**
   * A key-less read's text for one shard, without the rows a move keeps there that the shard does
   * not own (see Directory.beginScatter); any other statement's text as it is.
   */
  public String hide(String sql, int shard) {
    for (AutoCloseable g : guards) {
      if (g instanceof ScatterMark m) {
        return m.hide(sql, shard);
      }
    }
    return sql;
  }

  /** A key-less read's mark and what it needs to hide rows: its key space's SHARDED tables. */
  record ScatterMark(dev.shardex.directory.placement.ReadMarks.ScatterRead read, java.util.Map<String, String> keyColumns,
      boolean numeric) implements dev.shardex.directory.placement.ReadMarks.ReadMark {
    String hide(String sql, int shard) {
      List<String> keys = read.hidden().get(shard);
      return keys == null ? sql : dev.shardex.driver.sql.HiddenKeys.exclude(sql, keyColumns, keys, numeric);
    }

    @Override
    public void close() {
      read.close();
    }
  }

  /** A multi-row INSERT split by owner: each shard gets only its rows (0-based, ascending). */
  public static RoutePlan split(java.util.Map<Integer, int[]> rowsPerShard) {
    return new RoutePlan(Fanout.SUM, List.copyOf(rowsPerShard.keySet()), true, null, List.of(), List.of(),
        java.util.Map.copyOf(rowsPerShard), null, null);
  }

  /** The rows of a split INSERT this shard gets, or null when it gets the whole statement. */
  public int[] rowsFor(int shard) {
    return rows == null ? null : rows.get(shard);
  }

  /** A one-shard plan; shared (plans are immutable), so routing a key-equality statement allocates none. */
  public static RoutePlan one(int shard, boolean write) {
    if (shard < 0 || shard >= ONE.length / 2) {
      return new RoutePlan(Fanout.ONE, List.of(shard), write, null, List.of());
    }
    int at = shard * 2 + (write ? 1 : 0);
    RoutePlan p = ONE[at];
    if (p == null) {
      p = new RoutePlan(Fanout.ONE, List.of(shard), write, null, List.of());
      ONE[at] = p; // a race makes an equal plan twice: harmless
    }
    return p;
  }

  /** The one-shard plans of shards 0..255, read and written (with) each. */
  private static final RoutePlan[] ONE = new RoutePlan[512];

  public static RoutePlan of(Fanout fanout, List<Integer> shards, boolean write) {
    if (shards.size() == 1 && fanout != Fanout.DDL) {
      return one(shards.get(0), write);
    }
    return new RoutePlan(fanout, List.copyOf(shards), write, null, List.of());
  }

  /** A SELECT joining tables that live apart, for a cross-shard join: it runs its own statements. */
  public static RoutePlan join() {
    return JOIN;
  }

  private static final RoutePlan JOIN = new RoutePlan(Fanout.JOIN, List.of(), false, null, List.of());

  /** The plan holding the in-flight guards of the keys it writes; the executor's caller releases them. */
  public RoutePlan withGuards(List<AutoCloseable> held) {
    return new RoutePlan(fanout, shards, write, declare, undeclare, List.copyOf(held), rows, fill, inSplit);
  }

  /** The same plan with each shard's share of the key's IN list. */
  public RoutePlan withInSplit(InSplit split) {
    return new RoutePlan(fanout, shards, write, declare, undeclare, guards, rows, fill, split);
  }

  public int single() {
    return shards.get(0);
  }
}
