package dev.shardex.driver.plan;

import dev.shardex.driver.sql.JoinAggregates;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Aggregates, groups, DISTINCT and HAVING over a cross-shard join, done by one server: the joined
 * rows (only the columns the statement reads) go back to one shard as a typed JSON_TABLE, and the
 * statement's own select list, GROUP BY, HAVING, ORDER BY and LIMIT run over them there
 * ({@link JoinAggregates}). The server's own grouping, collations, folding and result types apply;
 * a column shown as is keeps its table column's metadata. Bounded by the join's cap, one round trip more.
 */
public final class PushBack implements Operator {
  private final Operator join;
  private final JoinAggregates.Plan plan;
  private final long maxBytes;
  private final Step outer;
  private final String describe;

  public PushBack(Operator join, JoinAggregates.Plan plan, long maxBytes) {
    this(join, plan, maxBytes, "PushBack: the joined rows to one shard as a typed JSON_TABLE; the statement's aggregates, GROUP BY,"
        + " DISTINCT, HAVING, ORDER BY and LIMIT run there");
  }

  /** {@code describe}: what it does, for EXPLAIN ROUTE (a GLOBAL table's outer join gives back one table's rows). */
  public PushBack(Operator join, JoinAggregates.Plan plan, long maxBytes, String describe) {
    this.join = join;
    this.plan = plan;
    this.maxBytes = maxBytes;
    this.describe = describe;
    this.outer = new Step(plan.outer(), "the statement over the joined rows, given back to one shard as a typed JSON_TABLE", true);
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Rows joined = Rows.read(run.open(join), run.cap(), "");
    String json = JsonRows.of(joined.cells(), plan.columns());
    if (json.length() > maxBytes) {
      throw ShardexError.JOIN_TOO_WIDE.exception(plan.outer(), json.length(), maxBytes);
    }
    Object[] bound = new Object[plan.outerParams().length];
    for (int i = 0; i < bound.length; i++) {
      int p = plan.outerParams()[i];
      bound[i] = p == plan.json() ? json : run.values()[p]; // the statement's values array may be longer than its markers
    }
    Rows out = Rows.read(run.open(outer.bind(plan.outer(), bound)), run.cap(), "");
    return new Rows(out.cells(), new PushedMetaData(out.meta(), joined.meta(), plan.plain(), run.values())).result(run);
  }

  @Override
  public String describe() {
    return describe;
  }

  @Override
  public String roundTrips() {
    return "1";
  }

  @Override
  public List<Operator> inputs() {
    return List.of(join, outer);
  }
}
