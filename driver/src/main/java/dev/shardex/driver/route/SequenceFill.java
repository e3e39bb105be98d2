package dev.shardex.driver.route;

import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.ValueSource;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;

/**
 * The sequence-filled column of an INSERT, row by row, as AUTO_INCREMENT does it on one server: a
 * row that omits the column or gives NULL (or 0) gets the sequence's next id; a row that gives a value
 * keeps it, and the sequence moves past that value before the row is written, so no later id
 * repeats it (on this shard or any other). Rows of one INSERT may mix both.
 */
final class SequenceFill {
  /** A row's entry in {@link RoutePlan.Fill#ids()} when the row gives its own value. */
  static final long KEEP = RoutePlan.Fill.KEEP;

  private SequenceFill() {}

  /** The ids to fill in (null when no row needs one); moves the sequence past the explicit values first. */
  static RoutePlan.Fill of(RouteTemplate t, Object[] values, RouteContext ctx) throws SQLException {
    if (t.targetTable() == null || t.insertSelect() || t.insertRows().isEmpty()) {
      return null;
    }
    String table = t.targetTable().name();
    String column = ctx.directory().sequenceColumn(table);
    if (column == null) {
      return null;
    }
    List<String> columns = t.insertColumns().isEmpty() ? ctx.schema(table).columnNames() : t.insertColumns();
    int at = columns.indexOf(column);
    if (columns.isEmpty() || at < 0 && t.insertColumns().isEmpty()) {
      return null; // INSERT ... VALUES without a column list on a table whose columns cannot be read: as written
    }
    long[] ids = new long[t.insertRows().size()];
    int missing = markRows(t.insertRows(), at, values, ids);
    long[] explicit = explicitValues(t.insertRows(), at, values, ids.length - missing);
    if (explicit.length > 0 && !ctx.dryRun()) {
      ctx.directory().explicitIds(table, column, explicit, ctx.sequenceBlock());
    }
    if (missing == 0) {
      return null;
    }
    if (!ctx.takesIds()) {
      return withoutIds(table, column, ctx);
    }
    long[] fresh = ctx.directory().nextIds(table + "." + column, missing, ctx.sequenceBlock());
    for (int r = 0, f = 0; r < ids.length; r++) {
      if (ids[r] != KEEP) {
        ids[r] = fresh[f++];
      }
    }
    return new RoutePlan.Fill(column, ids, at);
  }

  /**
   * An EXPLAIN takes no ids: the column stays as the INSERT wrote it (the shard's plan does not
   * depend on its value), unless it is the shard key, whose id would decide the shard.
   */
  private static RoutePlan.Fill withoutIds(String table, String column, RouteContext ctx) throws SQLException {
    dev.shardex.vocabulary.TableDef def = ctx.directory().table(table);
    if (def != null && column.equalsIgnoreCase(def.keyColumn())) {
      throw dev.shardex.vocabulary.ShardexError.UNSUPPORTED.exception("EXPLAIN of an INSERT into " + table + " whose key "
          + column + " a sequence fills (its new ids would decide the shard)",
          "give " + column + " a value in the EXPLAINed INSERT, or see where new rows go with EXPLAIN ROUTE");
    }
    return null;
  }

  /** Marks the rows that give their own value with {@link #KEEP}; returns how many rows need an id. */
  private static int markRows(List<List<ValueSource>> rows, int at, Object[] values, long[] ids) {
    int missing = 0;
    for (int r = 0; r < rows.size(); r++) {
      if (at < 0 || isNull(rows.get(r), at, values)) {
        missing++;
      } else {
        ids[r] = KEEP;
      }
    }
    return missing;
  }

  /**
   * NULL or 0 asks for the next id, as AUTO_INCREMENT does under MySQL's default sql_mode (a mapper
   * that binds a primitive id of 0 relies on it); the shard's own counter must never fill it.
   */
  private static boolean isNull(List<ValueSource> row, int at, Object[] values) {
    ValueSource v = at < row.size() ? row.get(at) : null;
    Object value = v instanceof ValueSource.Literal l ? l.value()
        : v instanceof ValueSource.Param p && p.index() < values.length ? values[p.index()] : (Object) false;
    return value == null || value instanceof Number n && (n instanceof BigDecimal d ? d.signum() == 0 : n.doubleValue() == 0);
  }

  /** The positive whole values the kept rows give (what a BIGINT/INT column would store); others cannot collide. */
  private static long[] explicitValues(List<List<ValueSource>> rows, int at, Object[] values, int kept) {
    long[] out = new long[kept];
    int n = 0;
    for (List<ValueSource> row : rows) {
      if (at >= 0 && at < row.size() && !isNull(row, at, values)) {
        long v = wholeValue(row.get(at), values);
        if (v > 0) {
          out[n++] = v;
        }
      }
    }
    return n == out.length ? out : java.util.Arrays.copyOf(out, n);
  }

  /**
   * The value as the BIGINT column stores it (KeyType's strict-mode reading: rounded, spaces
   * trimmed), or 0 when it stores none (an expression, text the server refuses, out of range).
   */
  static long wholeValue(ValueSource source, Object[] values) {
    Object v = source instanceof ValueSource.Param p ? (p.index() < values.length ? values[p.index()] : null)
        : source instanceof ValueSource.Literal l ? l.value() : null;
    try {
      return v == null ? 0 : (Long) dev.shardex.vocabulary.KeyType.BIGINT.canonical(v, "", "");
    } catch (SQLException e) {
      return 0;
    }
  }
}
