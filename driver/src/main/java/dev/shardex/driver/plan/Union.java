package dev.shardex.driver.plan;

import dev.shardex.driver.merge.Cell;
import dev.shardex.driver.sql.SqlLexer;
import dev.shardex.driver.sql.StepLimit;
import dev.shardex.driver.sql.UnionSplit;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A set operation (UNION, INTERSECT, EXCEPT; ALL or DISTINCT) whose branches need different shards:
 * each branch runs first as a statement of its own
 * (routed, merged across its shards, limited by its own ORDER BY and LIMIT; a GLOBAL branch on one
 * shard), held within shardex.maxMergeRows: fetched with {@code LIMIT cap+1} unless it limits itself
 * ({@link StepLimit}), and refused by name when the cap+1-th row comes back, before any row is
 * returned (as {@link Materialize}). Then their rows go back to one
 * shard as typed JSON_TABLEs where the statement's operators (in MariaDB's precedence), ORDER BY and
 * LIMIT run ({@link UnionSplit}): the server there derives the result types, pairs and
 * de-duplicates rows under the columns' collations (NULLs equal; INTERSECT ALL keeps the lesser
 * count, EXCEPT ALL the difference) and orders as one server holding all rows does. A UNION ALL without ORDER BY
 * or LIMIT whose columns have one type in every branch needs no server: the rows are concatenated.
 */
public final class Union implements Operator {
  private final UnionSplit.Plan plan;
  private final long cap;
  private final long maxBytes;
  private final String sql;
  private final List<Step> branches = new ArrayList<>();
  private final Step outer;

  /** {@code sql}: the statement, for refusals; {@code cap}: shardex.maxMergeRows; {@code maxBytes}: the JSON given back, at most. */
  public Union(UnionSplit.Plan plan, String sql, long cap, long maxBytes) {
    this.plan = plan;
    this.sql = sql;
    this.cap = cap;
    this.maxBytes = maxBytes;
    for (int b = 0; b < plan.branches().size(); b++) {
      branches.add(new Step(branchSql(b), "branch " + (b + 1) + " of the " + plan.kind() + ", at most shardex.maxMergeRows rows"));
    }
    this.outer = plan.concatenates() ? null : new Step(plan.outer(), "the " + plan.kind()
        + ", ORDER BY and LIMIT over the branches' rows, given back to one shard as typed JSON_TABLEs", true);
  }

  /** The branch's text, fetching at most cap+1 rows unless it limits itself. */
  private String branchSql(int b) {
    UnionSplit.Branch branch = plan.branches().get(b);
    return branch.limited() ? branch.sql() : StepLimit.text(branch.sql(), cap);
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    List<Rows> rows = new ArrayList<>();
    for (int b = 0; b < branches.size(); b++) {
      rows.add(branch(run, b));
    }
    if (outer == null) {
      return concatenated(rows).result(run);
    }
    Object[] bound = bind(run.values(), json(rows));
    Rows out = Rows.read(run.open(outer.bind(plan.outer(), bound)), cap * branches.size(), "");
    // the server's metadata; a label of an expression with a value in it gets the value's text
    ResultSetMetaData server = new PushedMetaData(out.meta(), out.meta(), new int[0], run.values());
    return new Rows(out.cells(), UnionMetaData.combined(server, metas(rows))).result(run);
  }

  /** One branch's rows, or the refusal past the cap. */
  private Rows branch(Runner run, int b) throws SQLException {
    UnionSplit.Branch branch = plan.branches().get(b);
    Step step = branches.get(b).bind(branchSql(b), Values.pick(run.values(), branch.params()));
    Rows r = Rows.read(run.open(step), StepLimit.fetched(cap), "");
    if (r.cells().size() > cap) { // the cap+1-th row (of LIMIT cap+1, or of the branch's own LIMIT)
      throw ShardexError.CROSS_SHARD.exception(plan.kind() + " '" + SqlLexer.abbreviate(sql) + "'", "of each branch",
          "its branch " + (b + 1) + " has more than shardex.maxMergeRows (" + cap + " rows)",
          "narrow that branch (its key or a tighter filter) or give it a LIMIT, or raise shardex.maxMergeRows");
    }
    return r;
  }

  private static Rows concatenated(List<Rows> rows) {
    List<Cell[]> all = new ArrayList<>();
    for (Rows r : rows) {
      all.addAll(r.cells());
    }
    return new Rows(all, UnionMetaData.concatenated(metas(rows)));
  }

  private static List<ResultSetMetaData> metas(List<Rows> rows) {
    List<ResultSetMetaData> metas = new ArrayList<>();
    for (Rows r : rows) {
      metas.add(r.meta());
    }
    return metas;
  }

  /** Each branch's rows as JSON; refused when they come to more than maxBytes in all. */
  private String[] json(List<Rows> rows) throws SQLException {
    String[] out = new String[rows.size()];
    long total = 0;
    for (int b = 0; b < out.length; b++) {
      out[b] = JsonRows.of(rows.get(b).cells(), plan.branches().get(b).columns());
      total += out[b].length();
    }
    if (total > maxBytes) {
      throw ShardexError.CROSS_SHARD.exception(plan.kind() + " '" + SqlLexer.abbreviate(sql) + "'", "of each branch",
          "its branches' rows come to " + total + " bytes of JSON to combine on one shard, more than " + maxBytes,
          "narrow the branches (their keys or tighter filters) or give them a LIMIT");
    }
    return out;
  }

  /** The outer text's values: the statement's, and each branch's JSON where its marker stands. */
  private Object[] bind(Object[] values, String[] json) {
    Object[] bound = new Object[plan.outerParams().length];
    for (int i = 0; i < bound.length; i++) {
      int p = plan.outerParams()[i];
      bound[i] = p >= plan.statementParams() ? json[p - plan.statementParams()] : values[p];
    }
    return bound;
  }

  @Override
  public String describe() {
    return "Union(" + plan.operators() + "): each branch a statement of its own (routed, merged, limited by itself), "
        + (outer == null ? "their rows concatenated (one type per column, no ORDER BY or LIMIT)"
            : "their rows to one shard as typed JSON_TABLEs, where the " + plan.kind() + ", ORDER BY and LIMIT run");
  }

  @Override
  public String roundTrips() {
    return outer == null ? "0" : "1";
  }

  @Override
  public List<Operator> inputs() {
    List<Operator> in = new ArrayList<>(branches);
    if (outer != null) {
      in.add(outer);
    }
    return in;
  }
}
