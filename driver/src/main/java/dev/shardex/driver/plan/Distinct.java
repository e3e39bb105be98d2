package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.ValueOrder;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** DISTINCT across shards: the first of the rows equal on every visible column (by the column's case rules). */
final class Distinct implements Operator {
  private final Operator input;
  private final int hidden;
  private final String shards;

  Distinct(Operator input, int hidden, String shards) {
    this.input = input;
    this.hidden = hidden;
    this.shards = shards;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Rows rows = Rows.read(run.open(input), run.cap(), shards);
    boolean[] ci = rows.caseInsensitive();
    int visible = ci.length - hidden;
    Map<List<Object>, Cell[]> seen = new LinkedHashMap<>();
    for (Cell[] row : rows.cells()) {
      List<Object> key = new ArrayList<>(visible);
      for (int i = 0; i < visible; i++) {
        key.add(ValueOrder.groupingKey(row[i].value(), ci[i]));
      }
      seen.putIfAbsent(key, row);
    }
    return new Rows(new ArrayList<>(seen.values()), rows.meta()).result(run);
  }

  @Override
  public String describe() {
    return "Distinct: rows equal on every visible column kept once";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(input);
  }
}
