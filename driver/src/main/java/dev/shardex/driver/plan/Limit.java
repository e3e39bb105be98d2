package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.sql.ValueSource;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** OFFSET m LIMIT n over buffered rows (the statement's own values, bound when it runs). */
final class Limit implements Operator {
  private final Operator input;
  private final ValueSource offset;
  private final ValueSource limit;

  Limit(Operator input, ValueSource offset, ValueSource limit) {
    this.input = input;
    this.offset = offset;
    this.limit = limit;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    long skip = Values.whole(offset, run.values(), 0);
    long take = Values.whole(limit, run.values(), -1);
    Rows rows = Rows.read(run.open(input), run.cap(), "");
    List<Cell[]> all = rows.cells();
    int from = (int) Math.min(skip, all.size());
    int to = take < 0 ? all.size() : (int) Math.min(all.size(), from + Math.min(take, Integer.MAX_VALUE));
    return new Rows(all.subList(from, to), rows.meta()).result(run);
  }

  static String text(ValueSource v, Object[] values) {
    if (v instanceof ValueSource.Param p) {
      return values != null && p.index() < values.length ? String.valueOf(values[p.index()]) : "?";
    }
    return v instanceof ValueSource.Literal l ? String.valueOf(l.value()) : ((ValueSource.Opaque) v).text();
  }

  @Override
  public String describe() {
    return "Limit: " + (offset == null ? "" : "OFFSET " + text(offset, null) + " ") + "LIMIT " + (limit == null ? "all" : text(limit, null));
  }

  @Override
  public List<Operator> inputs() {
    return List.of(input);
  }
}
