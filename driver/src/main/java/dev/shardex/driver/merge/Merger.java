package dev.shardex.driver.merge;

import dev.shardex.directory.ShardexError;
import dev.shardex.driver.sql.MergeSpec;
import dev.shardex.driver.sql.MergeSpec.SortKey;
import dev.shardex.driver.sql.ValueSource;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * merge stage: turns the shards' result sets of one SELECT into the result one server would give,
 * as its {@link MergeSpec} says. Sorted and limited rows stream through a k-way merge; grouped,
 * aggregated and DISTINCT results are folded in memory, bounded by {@code maxRows} rows read.
 */
public final class Merger {
  private Merger() {}

  public static ResultSet merge(MergeSpec spec, List<ShardResultSet> parts, Object[] values, Statement owner, long maxRows,
      String shards) throws SQLException {
    boolean streaming = false;
    try {
      ResultSetMetaData shardMeta = parts.get(0).getMetaData();
      int total = shardMeta.getColumnCount();
      int visible = total - spec.hidden();
      boolean[] ci = new boolean[total];
      for (int i = 0; i < total; i++) {
        ci[i] = !shardMeta.isCaseSensitive(i + 1);
      }
      long offset = number(spec.offset(), values, 0);
      long limit = number(spec.limit(), values, -1);
      List<SortKey> sortKeys = spec.order().stream().map(k -> k.resolve(visible)).toList();
      for (SortKey k : sortKeys) {
        if (k.column() < 1 || k.column() > total) {
          // a position past the select list (ORDER BY 92): the server's own answer, before any row is read
          throw new java.sql.SQLSyntaxErrorException("Unknown column '" + k.column() + "' in 'order clause'", "42S22", 1054);
        }
      }
      if (!spec.aggregate() && !spec.distinct()) {
        streaming = true; // the merged result set owns the shards' result sets from here on
        return new SortedMergeResultSet(parts, sortKeys, ci, new MergedMetaData(shardMeta, visible, null, null), owner, offset, limit);
      }
      List<Cell[]> rows = readAll(parts, total, maxRows, shards);
      if (spec.aggregate()) {
        rows = fold(spec, rows, ci, values, shards);
      }
      if (spec.distinct()) {
        rows = distinct(rows, visible, ci);
      }
      List<SortKey> order = !sortKeys.isEmpty() ? sortKeys
          : spec.groupKeys().stream().map(k -> new SortKey(k, true)).toList(); // MariaDB sorts groups by their keys
      if (!order.isEmpty()) {
        rows.sort(comparator(order, ci));
      }
      List<Cell[]> page = new ArrayList<>();
      for (int i = (int) Math.min(offset, rows.size()); i < rows.size() && (limit < 0 || page.size() < limit); i++) {
        page.add(java.util.Arrays.copyOf(rows.get(i), visible));
      }
      return new RowsResultSet(page, new MergedMetaData(shardMeta, visible, spec, values), owner);
    } finally {
      if (!streaming) {
        Closing.closeAll(parts);
      }
    }
  }

  /** A LIMIT or OFFSET's value: a whole number from 0 to Long.MAX_VALUE, else SHX1209. */
  public static long number(ValueSource source, Object[] values, long absent) throws SQLException {
    if (source == null) {
      return absent;
    }
    Object v = source instanceof ValueSource.Param p ? (p.index() < values.length ? values[p.index()] : null)
        : source instanceof ValueSource.Literal l ? l.value() : null;
    if (!wholeNumber(v)) {
      throw ShardexError.UNSUPPORTED.exception("a LIMIT/OFFSET of '" + v + "' across shards", "give a whole number");
    }
    return ((Number) v).longValue();
  }

  private static boolean wholeNumber(Object v) {
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue() >= 0;
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return d >= 0 && d == Math.rint(d) && d < 9.0e18;
    }
    if (v instanceof java.math.BigDecimal d) {
      return d.signum() >= 0 && d.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) <= 0 && d.remainder(java.math.BigDecimal.ONE).signum() == 0;
    }
    return v instanceof java.math.BigInteger i && i.signum() >= 0 && i.bitLength() < 64;
  }

  private static List<Cell[]> readAll(List<ShardResultSet> parts, int total, long maxRows, String shards)
      throws SQLException {
    List<Cell[]> rows = new ArrayList<>();
    for (ShardResultSet rs : parts) {
      while (rs.next()) {
        if (rows.size() >= maxRows) {
          throw ShardexError.CROSS_SHARD.exception("SELECT", shards, "merging it would read more than "
              + maxRows + " rows (shardex.maxMergeRows)", "narrow it, add the key, or raise shardex.maxMergeRows");
        }
        Cell[] row = new Cell[total];
        for (int i = 0; i < total; i++) {
          Object v = rs.getObject(i + 1);
          row[i] = v == null ? Cell.NULL : new Cell(v, rs.getString(i + 1));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static List<Cell[]> fold(MergeSpec spec, List<Cell[]> rows, boolean[] ci, Object[] values, String shards)
      throws SQLException {
    int n = spec.slots().size();
    Map<List<Object>, Fold[]> groups = new LinkedHashMap<>();
    for (Cell[] row : rows) {
      List<Object> key = new ArrayList<>(spec.groupKeys().size());
      for (int k : spec.groupKeys()) {
        key.add(ValueOrder.groupingKey(row[k - 1].value(), ci[k - 1]));
      }
      Fold[] folds = groups.computeIfAbsent(key, x -> {
        Fold[] f = new Fold[n];
        for (int i = 0; i < n; i++) {
          f[i] = new Fold(spec.slots().get(i), ci[i]);
        }
        return f;
      });
      for (int i = 0; i < n; i++) {
        folds[i].add(row[i]);
      }
    }
    if (groups.isEmpty() && spec.groupKeys().isEmpty()) {
      // an aggregate over no rows (the shards grouped by a DISTINCT argument) is still one row
      Fold[] empty = new Fold[n];
      for (int i = 0; i < n; i++) {
        empty[i] = new Fold(spec.slots().get(i), ci[i]);
      }
      groups.put(List.of(), empty);
    }
    List<Cell[]> out = new ArrayList<>();
    HavingEvaluator having = spec.having() == null ? null : new HavingEvaluator(spec.havingRefs(), values, shards);
    for (Fold[] folds : groups.values()) {
      Cell[] row = new Cell[n];
      for (int i = 0; i < n; i++) {
        int avgCount = spec.slots().get(i).avgCount();
        row[i] = folds[i].result(avgCount > 0 ? folds[avgCount - 1] : null);
      }
      if (having == null || having.keeps(spec.having(), row)) {
        out.add(row);
      }
    }
    return out;
  }

  private static List<Cell[]> distinct(List<Cell[]> rows, int visible, boolean[] ci) {
    Map<List<Object>, Cell[]> seen = new LinkedHashMap<>();
    for (Cell[] row : rows) {
      List<Object> key = new ArrayList<>(visible);
      for (int i = 0; i < visible; i++) {
        key.add(ValueOrder.groupingKey(row[i].value(), ci[i]));
      }
      seen.putIfAbsent(key, row);
    }
    return new ArrayList<>(seen.values());
  }

  private static Comparator<Cell[]> comparator(List<SortKey> keys, boolean[] ci) {
    return (a, b) -> {
      for (SortKey k : keys) {
        int c = ValueOrder.compare(a[k.column() - 1].value(), b[k.column() - 1].value(), ci[k.column() - 1]);
        if (c != 0) {
          return k.ascending() ? c : -c;
        }
      }
      return 0;
    };
  }
}
