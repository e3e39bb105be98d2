package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.sql.InsertSelectCut;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * An INSERT ... SELECT whose rows do not live where they go. The SELECT runs first as a statement of
 * its own (routed and merged as any read, {@code LIMIT cap}: the cap-th row refuses it, SHX1208,
 * before anything is written); then its rows take the normal INSERT path as INSERT ... VALUES statements of
 * at most {@link #BATCH} rows: split by key, sequence-filled, lookup indexes kept. Their counts add
 * up. The caller runs the writes inside one transaction (jdbc.InsertSelectQuery), so they apply
 * together or not at all.
 */
public final class InsertRows implements Operator {
  /** Rows per INSERT statement. */
  static final int BATCH = 500;
  /** Markers per INSERT statement, at most (a server-side prepared statement takes 65,535). */
  private static final int MAX_MARKERS = 60_000;

  private final InsertSelectCut.Plan cut;
  private final long cap;
  private final Step source;
  private final Step insert;

  public InsertRows(InsertSelectCut.Plan cut, long cap) {
    this.cut = cut;
    this.cap = cap;
    this.source = new Step(cut.select(), "the SELECT's rows, all read before anything is written, at most shardex.maxMergeRows");
    this.insert = new Step(cut.head() + "VALUES (?, ...), ..." + cut.tail(),
        "the rows, at most " + BATCH + " per INSERT, each routed as any INSERT (split by key)");
  }

  /** The SELECT's rows; more than the cap is refused by name. */
  public List<Cell[]> read(Runner run) throws SQLException {
    try {
      ResultSet rs = run.open(source.bind(cut.select(), Values.pick(run.values(), cut.selectParams())));
      return Rows.read(rs, cap, "").cells();
    } catch (SQLException e) {
      if (Rows.overCap(e)) { // here, or in the SELECT's own merge
        throw ShardexError.INSERT_SELECT.exception(cut.table(), "its SELECT has more than " + cap
            + " rows (shardex.maxMergeRows), so nothing was written", "insert in slices (a key range per statement),"
            + " or raise shardex.maxMergeRows");
      }
      throw e;
    }
  }

  /** Inserts the rows, a batch per statement; the rows written (as the shards count them). */
  public long write(Runner run, List<Cell[]> rows) throws SQLException {
    if (rows.isEmpty()) {
      return 0;
    }
    int columns = rows.get(0).length;
    int per = Math.max(1, Math.min(BATCH, MAX_MARKERS / Math.max(1, columns)));
    long count = 0;
    String full = null;
    for (int from = 0; from < rows.size(); from += per) {
      int to = Math.min(rows.size(), from + per);
      String sql = to - from == per && full != null ? full : text(to - from, columns);
      if (to - from == per) {
        full = sql;
      }
      count += Math.max(0, run.write(sql, values(run.values(), rows, from, to, columns)).updateCount());
    }
    return count;
  }

  private String text(int rows, int columns) {
    StringBuilder row = new StringBuilder(columns * 3).append('(');
    for (int c = 0; c < columns; c++) {
      row.append(c == 0 ? "?" : ", ?");
    }
    row.append(')');
    StringBuilder s = new StringBuilder(cut.head().length() + cut.tail().length() + rows * (row.length() + 2) + 8);
    s.append(cut.head()).append("VALUES ");
    for (int r = 0; r < rows; r++) {
      s.append(r == 0 ? "" : ", ").append(row);
    }
    return s.append(cut.tail()).toString();
  }

  private Object[] values(Object[] statement, List<Cell[]> rows, int from, int to, int columns) {
    int head = cut.headParams().length;
    Object[] out = new Object[head + (to - from) * columns + cut.tailParams().length];
    System.arraycopy(Values.pick(statement, cut.headParams()), 0, out, 0, head);
    int at = head;
    for (int r = from; r < to; r++) {
      for (Cell cell : rows.get(r)) {
        out[at++] = bound(cell);
      }
    }
    System.arraycopy(Values.pick(statement, cut.tailParams()), 0, out, at, cut.tailParams().length);
    return out;
  }

  /**
   * A value as the INSERT binds it: numbers, strings and bytes as read; anything else (dates, times,
   * booleans of TINYINT(1)) as the text the shard gave, which it reads back as it would its own value.
   */
  private static Object bound(Cell cell) {
    Object v = cell.value();
    return v == null || v instanceof Number || v instanceof String || v instanceof byte[] ? v : cell.text();
  }

  /** Runs through {@link #read} and {@link #write} (an INSERT returns no rows). */
  @Override
  public ResultSet open(Runner run) throws SQLException {
    throw ShardexError.UNSUPPORTED.exception("opening an INSERT ... SELECT as rows", "run it as an update");
  }

  @Override
  public String describe() {
    return "InsertRows: the SELECT's rows (read first, within shardex.maxMergeRows) inserted by key, at most "
        + BATCH + " per INSERT, in one transaction";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(source, insert);
  }
}
