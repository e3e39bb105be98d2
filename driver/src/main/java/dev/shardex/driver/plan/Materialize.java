package dev.shardex.driver.plan;

import dev.shardex.driver.sql.StepLimit;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The rows a later step reads, fetched by a statement of their own (routed and merged as any
 * other) with {@code LIMIT cap+1} ({@link StepLimit}): it holds at most {@code cap} of them, and
 * refuses the statement by name (SHX1207) when the cap+1-th row comes back. Across shards, the
 * shards are asked for their counts first ({@link Runner#counted}): a step past the cap is refused
 * before its rows cross the wire.
 */
public final class Materialize implements Operator {
  private final String sql;
  private final int[] params;
  private final long cap;
  private final Step step;

  public Materialize(String sql, int[] params, long cap) {
    this.sql = StepLimit.text(sql, cap);
    this.cap = cap;
    this.params = params;
    this.step = Step.counted(this.sql, "the rows the next step reads, at most shardex.maxMergeRows of them");
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    return Rows.read(run.open(step.bind(sql, Values.pick(run.values(), params))), cap, "several").result(run);
  }

  @Override
  public String describe() {
    return "Materialize: the columns the statement reads, bounded by shardex.maxMergeRows";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(step);
  }
}
