package dev.shardex.driver.plan;

import dev.shardex.directory.ShardexError;
import dev.shardex.driver.sql.NumberedParameters;
import dev.shardex.driver.sql.SubqueryPullOut;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A semi-join by pull-out: each uncorrelated IN subquery runs first as a statement of its own; its
 * distinct values are written into the statement, which then runs routed by them (by its key, when
 * the values are keys). A NULL among the values stays in the list (x IN (1, NULL) is NULL, not
 * FALSE), and a subquery with no rows becomes FALSE for IN, TRUE for NOT IN: one server's answers.
 */
public final class PullOut implements Operator {
  private final SubqueryPullOut.Plan plan;
  private final long cap;
  private final List<Step> subs = new ArrayList<>();
  private final Step outer;

  public PullOut(SubqueryPullOut.Plan plan, long cap) {
    this.plan = plan;
    this.cap = cap;
    for (int k = 0; k < plan.subs().size(); k++) {
      subs.add(new Step(plan.subs().get(k).sql(),
          "subquery " + (k + 1) + ", run first as a statement of its own: its distinct values replace it"));
    }
    this.outer = new Step(NumberedParameters.print(plan.marked()).sql(), "then the statement, with each subquery's values "
        + "written in (x IN (...), or FALSE / TRUE for NOT IN when it has none), routed by them");
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Object[] values = run.values();
    List<List<Object>> answers = new ArrayList<>();
    List<Object> all = new ArrayList<>();
    for (int k = 0; k < subs.size(); k++) {
      SubqueryPullOut.Sub sub = plan.subs().get(k);
      LinkedHashSet<Object> distinct = new LinkedHashSet<>();
      try (ResultSet rs = run.open(subs.get(k).bind(sub.sql(), Values.pick(values, sub.params())))) {
        while (rs.next()) {
          distinct.add(rs.getObject(1));
          if (distinct.size() > cap) {
            throw ShardexError.JOIN_TOO_LARGE.exception(sub.sql(), "subquery", cap);
          }
        }
      }
      answers.add(new ArrayList<>(distinct));
      all.addAll(distinct);
    }
    NumberedParameters.Text text = plan.substitute(answers, values.length);
    return run.open(outer.bind(text.sql(), Values.pick(Values.concat(values, all), text.order())));
  }

  @Override
  public String describe() {
    return "PullOut: " + subs.size() + " IN subquer" + (subs.size() == 1 ? "y" : "ies") + " first, then the statement";
  }

  @Override
  public List<Operator> inputs() {
    List<Operator> out = new ArrayList<>(subs);
    out.add(outer);
    return out;
  }
}
