package dev.shardex.driver.plan;

import dev.shardex.driver.execute.BatchCall;
import dev.shardex.driver.execute.BatchExecutor;
import dev.shardex.driver.execute.OneTrip;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.PlanExecutor;
import dev.shardex.driver.execute.ShardAccess;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.merge.RowsResultSet;
import dev.shardex.driver.merge.ShardResultSet;
import dev.shardex.driver.route.RoutePlan;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Runs one statement's plan: the only place physical statements start, for plain statements, merged
 * reads, JDBC batches and multi-statement texts alike. A Route leaf's shards run here ({@link #route},
 * {@link #gather}); a step that is a statement of its own goes back through the pipeline
 * ({@link #step}), routed when it runs, and so comes back here. A single-step plan (one shard, or a
 * write) needs no runner object: {@link #route} is static, so the hot path allocates nothing for
 * it. So are {@link #batch} (a JDBC batch whose entries were all routed: one physical batch per
 * shard) and {@link #text} (a multi-statement text whose parts all route to one shard: one round
 * trip); a batch or text that cannot run so runs entry by entry, each back through the pipeline.
 *
 * <p>Analysing (EXPLAIN ANALYZE ROUTE), the runner times each node's open, counts the round trips
 * that happened meanwhile (its inputs' included; the session counts its own then) and the rows it
 * returned where they are held. A node opened several times (a join's step, once per batch) adds up.
 */
public final class Runner {
  /** Runs a statement of a multi-step plan back through the pipeline, routed afresh, its physical calls counted. */
  public interface Steps {
    Outcome run(String sql, Object[] values, Runner runner) throws SQLException;

    /**
     * As {@link #run}, for a buffered step refused past the cap: when it spans shards, they are asked
     * for their counts first, and it is refused by name before its rows are sent.
     */
    default Outcome counted(String sql, Object[] values, Runner runner) throws SQLException {
      return run(sql, values, runner);
    }

    /** Runs a text the driver wrote (not parsed, not routed) on one shard: the transaction's, else any. */
    Outcome direct(String sql, Object[] values) throws SQLException;
  }

  /** What an analysed node did; {@code bytes}: the heap its rows took where they are held (an estimate), else -1. */
  public record Figures(long rows, long roundTrips, double millis, long bytes) {}

  private final ShardAccess access;
  private final Executor pool;
  private final Statement owner;
  private final Object[] values;
  private final long cap;
  private final Steps steps;
  private final Map<Operator, Figures> figures;

  public Runner(ShardAccess access, Executor pool, Statement owner, Object[] values, long cap, Steps steps,
      boolean analyse) {
    this.access = access;
    this.pool = pool;
    this.owner = owner;
    this.values = values;
    this.cap = cap;
    this.steps = steps;
    this.figures = analyse ? new IdentityHashMap<>() : null;
  }

  /** A single-step plan on its shards: one statement each, run, counted or concatenated (execute stage). */
  public static Outcome route(RoutePlan plan, ShardAccess access, ShardCall call, boolean keys, Statement owner,
      String what, Executor pool) throws SQLException {
    return PlanExecutor.execute(plan, access, call, keys, owner, what, pool);
  }

  /** A JDBC batch, every entry routed (a null plan: the entry runs nothing): one physical batch per shard (and text); its counts in the caller's order. */
  public static long[] batch(List<RoutePlan> plans, ShardAccess access, BatchCall call) throws SQLException {
    return BatchExecutor.run(plans, access, call);
  }

  /** A multi-statement text whose parts all route to {@code shard}, in one round trip; its parts' outcomes. */
  public static OneTrip.Ran text(int shard, boolean write, boolean wrapped, String sql, ShardAccess access,
      Statement owner, OneTrip.Calls calls) throws SQLException {
    return OneTrip.run(shard, write, wrapped, sql, access, owner, calls);
  }

  /** The root's rows: the statement's result. */
  public Outcome run(Operator root) throws SQLException {
    return new Outcome(open(root), -1, null);
  }

  /** Opens a node (inputs open their own inputs through here). */
  public ResultSet open(Operator op) throws SQLException {
    if (figures == null) {
      return op.open(this);
    }
    long start = System.nanoTime();
    long before = trips();
    ResultSet rs = op.open(this);
    RowsResultSet held = rs instanceof RowsResultSet r ? r : null;
    Figures f = new Figures(held == null ? -1 : held.cells().size(), trips() - before, (System.nanoTime() - start) / 1e6,
        held == null ? -1 : held.heldBytes());
    figures.merge(op, f, (a, b) -> new Figures(a.rows() < 0 || b.rows() < 0 ? -1 : a.rows() + b.rows(),
        a.roundTrips() + b.roundTrips(), a.millis() + b.millis(), Math.max(a.bytes(), b.bytes()))); // a step run per batch adds up
    return rs;
  }

  /** A read on every shard of the plan at once, in shard order, outside a tree (EXPLAIN's per-shard plans). */
  public static List<ShardResultSet> parallel(RoutePlan plan, ShardAccess access, ShardCall call, Statement owner,
      Executor pool) throws SQLException {
    return PlanExecutor.parallel(plan, access, call, owner, pool);
  }

  /** A single-step plan's rows (a Route leaf in a tree being explained or analysed). */
  public ResultSet route(RoutePlan plan, ShardCall call) throws SQLException {
    return route(plan, access, call, false, owner, "SELECT", pool).resultSet();
  }

  /** A read on every shard of the plan at once, in shard order (a Route leaf under a client merge). */
  public List<ShardResultSet> gather(RoutePlan plan, ShardCall call) throws SQLException {
    access.checkScope(plan.shards(), false);
    return PlanExecutor.parallel(plan, access, call, owner, pool);
  }

  /** A text the driver wrote, run on one shard as it is; its rows. */
  public ResultSet direct(String sql, Object[] stepValues) throws SQLException {
    return steps.direct(sql, stepValues).resultSet();
  }

  /** A step's statement, routed and run as any other statement; its rows. */
  public ResultSet step(String sql, Object[] stepValues) throws SQLException {
    return steps.run(sql, stepValues, this).resultSet();
  }

  /** A buffered step's statement whose reader refuses its cap+1-th row: routed, its shards counted first ({@link Steps#counted}). */
  public ResultSet counted(String sql, Object[] stepValues) throws SQLException {
    return steps.counted(sql, stepValues, this).resultSet();
  }

  /** A write a plan makes (an INSERT ... SELECT's rows), routed and run as any other statement; its outcome. */
  public Outcome write(String sql, Object[] stepValues) throws SQLException {
    return steps.run(sql, stepValues, this);
  }

  /** Round trips so far (the session counts its own while a statement is analysed). */
  private long trips() {
    return access.metrics().roundTrips();
  }

  public Object[] values() {
    return values;
  }

  public Statement owner() {
    return owner;
  }

  /** Rows any one buffered step may hold (shardex.maxMergeRows). */
  public long cap() {
    return cap;
  }

  /** An analysed node's figures, or null (not analysed, or never opened). */
  public Figures figures(Operator op) {
    return figures == null ? null : figures.get(op);
  }

  /** The root's figures once its rows were read to the end (the rows of a streamed result are known only then). */
  public void finish(Operator root, long rows, double millis) {
    if (figures != null) {
      Figures f = figures.get(root);
      figures.put(root, new Figures(rows, f == null ? trips() : f.roundTrips(), millis, f == null ? -1 : f.bytes()));
    }
  }

  /** Every node of the tree, depth first, with its step number ("1", "1.1", ...). */
  public static List<Map.Entry<String, Operator>> walk(Operator root) {
    List<Map.Entry<String, Operator>> out = new ArrayList<>();
    walk(root, "1", out);
    return out;
  }

  private static void walk(Operator op, String step, List<Map.Entry<String, Operator>> out) {
    out.add(Map.entry(step, op));
    int i = 1;
    for (Operator in : op.inputs()) {
      walk(in, step + "." + i++, out);
    }
  }
}
