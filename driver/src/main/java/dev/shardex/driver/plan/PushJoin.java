package dev.shardex.driver.plan;

import dev.shardex.driver.sql.JoinPushdown;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A join no lookup join answers, done by one server: each table's rows (the columns the statement
 * reads, with the WHERE terms that name that table alone) are read under shardex.maxMergeRows,
 * then given back to one shard as typed JSON_TABLEs, where the statement itself runs over them
 * ({@link JoinPushdown}). The server's own join, collations, NULL rules, grouping and ordering
 * apply; a column shown as is keeps its table column's metadata. Bounded by the cap per table and
 * by the JSON's size, and refused by name past either before the last step runs.
 */
public final class PushJoin implements Operator {
  private final JoinPushdown.Plan plan;
  private final long maxBytes;
  private final List<Operator> sides = new ArrayList<>();
  private final Step outer;

  public PushJoin(JoinPushdown.Plan plan, long cap, long maxBytes) {
    this.plan = plan;
    this.maxBytes = maxBytes;
    for (JoinPushdown.Side side : plan.sides()) {
      sides.add(new Materialize(side.sql(), side.params(), cap));
    }
    this.outer = new Step(plan.outer(), "the statement over every table's rows, given to one shard as typed JSON_TABLEs", true);
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Object[] bound = new Object[plan.outerParams().length];
    ResultSetMetaData[] metas = new ResultSetMetaData[sides.size()];
    String[] json = new String[sides.size()];
    long bytes = 0;
    for (int k = 0; k < sides.size(); k++) {
      Rows rows = Rows.read(run.open(sides.get(k)), run.cap(), "");
      metas[k] = rows.meta();
      json[k] = JsonRows.of(rows.cells(), plan.sides().get(k).columns());
      bytes += json[k].length();
      if (bytes > maxBytes) {
        throw ShardexError.JOIN_TOO_WIDE.exception(plan.sides().get(k).table(), bytes, maxBytes);
      }
    }
    for (int i = 0; i < bound.length; i++) {
      int p = plan.outerParams()[i];
      bound[i] = p >= plan.firstJson() ? json[p - plan.firstJson()] : run.values()[p];
    }
    Rows out = Rows.read(run.open(outer.bind(plan.outer(), bound)), run.cap(), "");
    return new Rows(out.cells(), new PushedMetaData(out.meta(), metas, plan.source(), plan.plain(), run.values(),
        plan.padded())).result(run);
  }

  @Override
  public String describe() {
    return "PushJoin: each table's rows to one shard as typed JSON_TABLEs; the statement's join, WHERE, GROUP BY,"
        + " ORDER BY and LIMIT run there";
  }

  @Override
  public String roundTrips() {
    return "1";
  }

  @Override
  public List<Operator> inputs() {
    List<Operator> all = new ArrayList<>(sides);
    all.add(outer);
    return all;
  }
}
