package dev.shardex.driver.plan;

import dev.shardex.driver.sql.NumberedParameters;
import dev.shardex.driver.sql.SubqueryPullOut.Kind;
import dev.shardex.driver.sql.StepLimit;
import dev.shardex.driver.sql.SubqueryPullOut;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A semi-join by pull-out: each subquery runs first as a statement of its own, and its answer is
 * written into the statement, which then runs routed by it (by its key, when the values are keys).
 * IN: the distinct values, a NULL among them kept (x IN (1, NULL) is NULL, not FALSE), none making
 * IN FALSE and NOT IN TRUE. A decorrelated EXISTS: the distinct non-NULL values of its correlated
 * column, read with LIMIT cap. A scalar subquery: its one value, typed ({@link ScalarValue}), NULL
 * for no row, MySQL's error 1242 for a second. All of them run, and fit the cap, before the statement does.
 */
public final class PullOut implements Operator {
  private final SubqueryPullOut.Plan plan;
  private final long cap;
  private final List<Step> subs = new ArrayList<>();
  private final List<String> texts = new ArrayList<>();
  private final Step outer;

  public PullOut(SubqueryPullOut.Plan plan, long cap) {
    this.plan = plan;
    this.cap = cap;
    for (int k = 0; k < plan.subs().size(); k++) {
      SubqueryPullOut.Sub sub = plan.subs().get(k);
      String sql = sub.kind() == Kind.EXISTS ? StepLimit.text(sub.sql(), cap) : sub.sql();
      texts.add(sql);
      subs.add(new Step(sql, "subquery " + (k + 1) + " (" + kind(sub) + "), run first as a statement of its own: " + role(sub)));
    }
    this.outer = new Step(NumberedParameters.print(plan.marked()).sql(), "then the statement, with each subquery's answer "
        + "written in (x IN (...); FALSE / TRUE for an IN or EXISTS without values; a scalar's value, or NULL), routed by it");
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Object[] values = run.values();
    List<SubqueryPullOut.Answer> answers = new ArrayList<>();
    List<Object> all = new ArrayList<>();
    Map<Integer, ResultSetMetaData> typed = new HashMap<>();
    for (int k = 0; k < subs.size(); k++) {
      SubqueryPullOut.Sub sub = plan.subs().get(k);
      try (ResultSet rs = run.open(subs.get(k).bind(texts.get(k), Values.pick(values, sub.params())))) {
        if (sub.column() >= 0) {
          typed.put(sub.column() + 1, rs.getMetaData());
        }
        SubqueryPullOut.Answer answer = sub.kind() == Kind.SCALAR ? ScalarValue.read(rs, sub.column() >= 0)
            : sub.kind() == Kind.ANY_ROW ? new SubqueryPullOut.Answer(rs.next() ? List.<Object>of(1) : List.of(), null)
            : distinct(rs, sub);
        answers.add(answer);
        if (sub.kind() != Kind.ANY_ROW) {
          all.addAll(answer.values());
        }
      }
    }
    NumberedParameters.Text text = plan.substitute(answers, values.length);
    ResultSet rows = run.open(outer.bind(text.sql(), Values.pick(Values.concat(values, all), text.order())));
    return typed.isEmpty() ? rows : new TypedColumns(rows, typed);
  }

  /**
   * The distinct values (rows of {@code sub.width()} values, flattened, for an EXISTS correlated by
   * several columns). An EXISTS's step was read with LIMIT cap+1: its cap+1-th row refuses it
   * (holding at most cap rows); an IN's refuses past cap distinct values.
   */
  private SubqueryPullOut.Answer distinct(ResultSet rs, SubqueryPullOut.Sub sub) throws SQLException {
    boolean limited = sub.kind() == Kind.EXISTS;
    int width = sub.width();
    LinkedHashSet<List<Object>> distinct = new LinkedHashSet<>();
    long rows = 0;
    while (rs.next()) {
      List<Object> row = new ArrayList<>(width);
      for (int c = 1; c <= width; c++) {
        row.add(rs.getObject(c));
      }
      distinct.add(row);
      if (limited ? ++rows > cap : distinct.size() > cap) {
        throw ShardexError.JOIN_TOO_LARGE.exception(sub.sql(), "subquery", cap);
      }
    }
    List<Object> values = new ArrayList<>(distinct.size() * width);
    distinct.forEach(values::addAll);
    return new SubqueryPullOut.Answer(values, null);
  }

  private static String kind(SubqueryPullOut.Sub sub) {
    return switch (sub.kind()) {
      case IN -> sub.not() ? "NOT IN" : "IN";
      case EXISTS -> sub.not() ? "NOT EXISTS, decorrelated to an anti-join" : "EXISTS, decorrelated to a semi-join";
      case ANY_ROW -> sub.not() ? "NOT EXISTS, uncorrelated" : "EXISTS, uncorrelated";
      case SCALAR -> "scalar";
      case QUANTIFIED -> "comparison with ANY/ALL";
    };
  }

  private String role(SubqueryPullOut.Sub sub) {
    return switch (sub.kind()) {
      case IN -> "its distinct values replace it";
      case EXISTS -> "the distinct non-NULL values of its correlated column" + (sub.width() > 1 ? "s" : "")
          + ", at most shardex.maxMergeRows=" + cap + ", against " + sub.left();
      case ANY_ROW -> "TRUE or FALSE replaces it";
      case SCALAR -> "its one value replaces it (NULL for no row, error 1242 for more than one)";
      case QUANTIFIED -> "its distinct values (NULL kept) replace it: " + sub.left() + " (SELECT ? UNION ALL SELECT ? ...)";
    };
  }

  @Override
  public String describe() {
    List<String> kinds = new ArrayList<>();
    for (SubqueryPullOut.Sub sub : plan.subs()) {
      kinds.add(kind(sub));
    }
    return "PullOut: " + subs.size() + " subquer" + (subs.size() == 1 ? "y" : "ies") + " first (" + String.join("; ", kinds)
        + "), then the statement";
  }

  @Override
  public List<Operator> inputs() {
    List<Operator> out = new ArrayList<>(subs);
    out.add(outer);
    return out;
  }
}
