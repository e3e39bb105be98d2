package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.RowsResultSet;
import dev.shardex.driver.sql.JoinSplit;
import dev.shardex.driver.sql.ValueSource;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The counts of a SELECT that only counts a cross-shard join's rows: {@code COUNT(*)} is the number
 * of joined rows, {@code COUNT(col)} the number of them where col is not NULL (a LEFT JOIN's padded
 * NULLs included in the rows, not in the column's count), one row, as one server gives it. The
 * metadata is a shard's own for {@code COUNT(*)} under each label (BIGINT), read from a query that
 * names no table.
 */
final class JoinCount implements Operator {
  private final Operator join;
  private final List<JoinSplit.Count> counts;
  private final ValueSource offset;
  private final ValueSource limit;
  private final String sql;
  private final Step shape;

  JoinCount(Operator join, List<JoinSplit.Count> counts, ValueSource offset, ValueSource limit) {
    this.join = join;
    this.counts = counts;
    this.offset = offset;
    this.limit = limit;
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < counts.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append("COUNT(*) AS `").append(counts.get(i).label().replace("`", "``")).append('`');
    }
    this.sql = sql.toString();
    this.shape = new Step(this.sql, "the counts' column types, as a shard reports them (no table read)");
  }

  @Override
  public String describe() {
    return "Count the joined rows (COUNT(*) all of them, COUNT(col) those where col is not NULL)";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(join, shape);
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    long from = LookupJoin.bound(offset, run.values(), 0);
    long take = LookupJoin.bound(limit, run.values(), Long.MAX_VALUE);
    long[] n = new long[counts.size()];
    try (ResultSet joined = run.open(join)) {
      while (joined.next()) {
        for (int i = 0; i < n.length; i++) {
          int item = counts.get(i).item();
          if (item < 0 || joined.getObject(item + 1) != null) {
            n[i]++;
          }
        }
      }
    }
    try (ResultSet types = run.open(shape.bind(sql, new Object[0]))) {
      Cell[] row = new Cell[n.length];
      for (int i = 0; i < n.length; i++) {
        row[i] = Cell.computed(n[i]);
      }
      List<Cell[]> rows = new ArrayList<>();
      if (from == 0 && take > 0) {
        rows.add(row);
      }
      return RowsResultSet.of(rows, types.getMetaData(), run.owner());
    }
  }
}
