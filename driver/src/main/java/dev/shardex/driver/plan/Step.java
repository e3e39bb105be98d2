package dev.shardex.driver.plan;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Route as a statement of its own: a step of a multi-step plan, routed when it runs (by the values
 * an earlier step found) and run back through the pipeline like any statement, merged there if it
 * spans shards. Its parent gives it the text and values of each run ({@link #bind}): a lookup join's
 * dependent step runs once per batch.
 */
final class Step implements Operator {
  private final java.util.function.Supplier<String> shown;
  private final java.util.function.Supplier<String> role;
  private final boolean direct;
  private final boolean counted;
  private String sql;
  private Object[] values;

  /** {@code shown}: its text for EXPLAIN ROUTE; {@code role}: what it is for, in the merge column. */
  Step(String shown, String role) {
    this(shown, role, false);
  }

  /** {@code direct}: a text the driver wrote, sent to one shard as it is (not parsed, not routed). */
  Step(String shown, String role, boolean direct) {
    this(() -> shown, () -> role, direct, false);
  }

  /** Its texts for EXPLAIN ROUTE, worded only when shown (a plan built per execution words none). */
  Step(java.util.function.Supplier<String> shown, java.util.function.Supplier<String> role, boolean direct) {
    this(shown, role, direct, false);
  }

  /** {@code counted}: a buffered step whose reader refuses its cap+1-th row, its shards counted first ({@link Runner#counted}). */
  private Step(java.util.function.Supplier<String> shown, java.util.function.Supplier<String> role, boolean direct,
      boolean counted) {
    this.shown = shown;
    this.role = role;
    this.direct = direct;
    this.counted = counted;
  }

  static Step counted(String shown, String role) {
    return new Step(() -> shown, () -> role, false, true);
  }

  Step bind(String sql, Object[] values) {
    this.sql = sql;
    this.values = values;
    return this;
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    return direct ? run.direct(sql, values) : counted ? run.counted(sql, values) : run.step(sql, values);
  }

  @Override
  public String describe() {
    return direct ? "Route: one shard (the transaction's, else any), the text as written" : "Route: a statement of its own, routed when it runs";
  }

  @Override
  public String roundTrips() {
    return direct ? "1" : "1 per shard it routes to";
  }

  @Override
  public List<Object[]> sent(Object[] statementValues) {
    return List.<Object[]>of(new Object[] {null, shown.get(), role.get()});
  }
}
