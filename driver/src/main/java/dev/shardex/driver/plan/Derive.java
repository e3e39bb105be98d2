package dev.shardex.driver.plan;

import dev.shardex.driver.merge.DelegatingResultSet;
import dev.shardex.driver.sql.DerivedCut;
import dev.shardex.driver.sql.JoinSplitter;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Derived tables and CTEs that need a cross-shard merge of their own (Citus's push-pull): each runs
 * first as a statement of its own (routed and merged as any read, within shardex.maxMergeRows), and
 * the statement then runs over their rows, written into it as typed JSON_TABLEs
 * ({@link DerivedColumns}): on one shard as it is when it reads no other table but GLOBAL ones, else
 * routed as any statement, the rows standing on each shard like a GLOBAL table's
 * ({@link DerivedCut}). One round trip per derived table more; their rows through the client once.
 */
public final class Derive implements Operator {
  private final DerivedCut.Plan plan;
  private final JoinSplitter.Catalog catalog;
  private final long maxBytes;
  private final List<Step> parts = new ArrayList<>();
  private final Step outer;

  public Derive(DerivedCut.Plan plan, JoinSplitter.Catalog catalog, long maxBytes) {
    this.plan = plan;
    this.catalog = catalog;
    this.maxBytes = maxBytes;
    for (DerivedCut.Part p : plan.parts()) {
      parts.add(new Step(p.sql(), "the rows of " + p.name() + ", at most shardex.maxMergeRows"));
    }
    this.outer = plan.routed()
        ? new Step(plan.outer(), "the statement over those rows (as typed JSON_TABLEs), routed as any statement")
        : new Step(plan.outer(), "the statement over those rows, given back to one shard as typed JSON_TABLEs", true);
  }

  @Override
  public ResultSet open(Runner run) throws SQLException {
    Object[] all = new Object[plan.params() + parts.size()];
    System.arraycopy(run.values(), 0, all, 0, Math.min(plan.params(), run.values().length));
    String sql = plan.outer();
    List<ResultSetMetaData> metas = new ArrayList<>();
    List<List<String>> names = new ArrayList<>();
    for (int k = 0; k < parts.size(); k++) {
      DerivedCut.Part part = plan.parts().get(k);
      Rows rows = read(run, k, part);
      metas.add(rows.meta());
      names.add(part.columns() != null ? part.columns() : labels(rows.meta()));
      String json = JsonRows.of(rows.cells(), rows.meta().getColumnCount());
      if (json.length() > maxBytes) {
        throw ShardexError.CROSS_SHARD.exception("SELECT", "several", "the rows of derived table " + part.name() + " take "
            + json.length() + " bytes as JSON, more than " + maxBytes, "narrow it");
      }
      all[plan.params() + k] = json;
      sql = sql.replace(DerivedCut.placeholder(k),
          "JSON_TABLE(?, '$[*]' COLUMNS (" + DerivedColumns.of(part.name(), part.columns(), rows.meta(), catalog) + "))");
    }
    ResultSet rs = run.open(outer.bind(sql, Values.pick(all, plan.outerParams())));
    ResultSetMetaData meta = new DerivedMetaData(rs.getMetaData(), metas, names);
    return new DelegatingResultSet() {
      @Override
      protected ResultSet rs() {
        return rs;
      }

      @Override
      public ResultSetMetaData getMetaData() {
        return meta;
      }
    };
  }

  private static List<String> labels(ResultSetMetaData meta) throws SQLException {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      out.add(meta.getColumnLabel(i));
    }
    return out;
  }

  /** A part's rows; past the cap, SHX1207 naming it. */
  private Rows read(Runner run, int k, DerivedCut.Part part) throws SQLException {
    try {
      ResultSet rs = run.open(parts.get(k).bind(part.sql(), Values.pick(run.values(), part.params())));
      return Rows.read(rs, run.cap(), "");
    } catch (SQLException e) {
      if (Rows.overCap(e)) { // here, or in the part's own merge
        throw ShardexError.CROSS_SHARD.exception("SELECT", "several", "its derived table " + part.name()
            + " has more than " + run.cap() + " rows (shardex.maxMergeRows)", "narrow it, or raise shardex.maxMergeRows");
      }
      throw e;
    }
  }

  @Override
  public String describe() {
    return "Derive: each derived table or CTE read as a statement of its own (within shardex.maxMergeRows), the"
        + " statement run over their rows as typed JSON_TABLEs " + (plan.routed() ? "(routed)" : "on one shard");
  }

  @Override
  public List<Operator> inputs() {
    List<Operator> in = new ArrayList<>(parts);
    in.add(outer);
    return in;
  }
}
