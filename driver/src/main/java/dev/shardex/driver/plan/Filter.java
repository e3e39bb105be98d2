package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.merge.HavingEvaluator;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;

/** HAVING on the merged groups: keeps the rows for which the condition is true (not NULL, not false). */
final class Filter implements Operator {
  private final Operator input;
  private final Expression condition;
  private final Map<Expression, Integer> refs;
  private final String shards;

  Filter(Operator input, Expression condition, Map<Expression, Integer> refs, String shards) {
    this.input = input;
    this.condition = condition;
    this.refs = refs;
    this.shards = shards;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Rows rows = Rows.read(run.open(input), run.cap(), shards);
    HavingEvaluator having = new HavingEvaluator(refs, run.values(), shards);
    List<Cell[]> kept = new ArrayList<>();
    for (Cell[] row : rows.cells()) {
      if (having.keeps(condition, row)) {
        kept.add(row);
      }
    }
    return new Rows(kept, rows.meta()).result(run);
  }

  @Override
  public String describe() {
    return "Filter: HAVING " + condition + " on the merged groups";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(input);
  }
}
