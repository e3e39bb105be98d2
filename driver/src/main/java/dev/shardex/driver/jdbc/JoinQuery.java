package dev.shardex.driver.jdbc;

import dev.shardex.driver.cluster.Cluster;
import dev.shardex.driver.execute.Outcome;
import dev.shardex.driver.execute.ShardCall;
import dev.shardex.driver.execute.ShardSession;
import dev.shardex.driver.plan.LookupJoin;
import dev.shardex.driver.plan.Materialize;
import dev.shardex.driver.plan.Operator;
import dev.shardex.driver.plan.PullOut;
import dev.shardex.driver.plan.PushBack;
import dev.shardex.driver.plan.PushJoin;
import dev.shardex.driver.plan.Runner;
import dev.shardex.driver.plan.StepTexts;
import dev.shardex.driver.plan.Union;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.driver.route.Router;
import dev.shardex.driver.sql.GlobalOuterJoin;
import dev.shardex.driver.sql.JoinAggregates;
import dev.shardex.driver.sql.JoinPushdown;
import dev.shardex.driver.sql.JoinSplit;
import dev.shardex.driver.sql.JoinSplitter;
import dev.shardex.driver.sql.RouteTemplate;
import dev.shardex.driver.sql.InlinedNumbers;
import dev.shardex.driver.sql.ShardSql;
import dev.shardex.driver.sql.SubqueryPullOut;
import dev.shardex.driver.sql.TableRef;
import dev.shardex.driver.sql.UnionSplit;
import dev.shardex.vocabulary.ShardexError;
import dev.shardex.vocabulary.TableDef;
import dev.shardex.vocabulary.TableKind;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A SELECT whose SHARDED tables live apart (the router's {@code JOIN} plan), planned as an operator
 * tree: its subqueries pulled out ({@link PullOut}), a GLOBAL outer join completed on one shard, or split into a driving and a dependent
 * statement ({@link JoinSplitter}) answered by a {@link LookupJoin}. The tree's steps run back
 * through the pipeline like any other statement. A statement the splitter cannot answer exactly
 * is refused with SHX1206 and the reason.
 */
final class JoinQuery {
  /** Distinct join values per dependent statement. */
  static final int BATCH = 500;

  private final Cluster cluster;
  private final ShardSession session;
  private final Pipeline pipeline;

  JoinQuery(Cluster cluster, ShardSession session, Pipeline pipeline) {
    this.cluster = cluster;
    this.session = session;
    this.pipeline = pipeline;
  }

  /** The split of a statement's text, or the refusal that names its tables and the reason. */
  JoinSplit split(RouteTemplate t, String text, Object[] values) throws SQLException {
    JoinSplit split = CachedCut.of(cluster.templates(), version() + "|join|" + text, () -> JoinSplitter.split(text, catalog()))
        .plan(reason -> refusal(t, values, reason));
    if (split == null) {
      throw refusal(t, values, "it cannot be cut into a driving and a dependent statement");
    }
    return split;
  }

  /** What a cached split depends on: the catalog (declarations, lookups) and the tables' columns (re-read after DDL). */
  String version() {
    return cluster.directory().catalogVersion() + "." + cluster.schemas().loads();
  }

  /**
   * Its subqueries over SHARDED tables run first (IN, EXISTS correlated by one equality, scalar:
   * {@link PullOut}), or a GLOBAL table's outer join with a SHARDED table completed by one shard
   * ({@link GlobalOuterJoin}); null for neither.
   */
  private Operator subqueries(RouteTemplate t, String text, Object[] values) throws SQLException {
    SubqueryPullOut.Plan pullOut = cluster.templates().crossShard(version() + "|pull-out|" + text,
        () -> SubqueryPullOut.of(text, catalog()));
    if (pullOut != null) {
      if (pullOut.refused() != null) {
        throw refusal(t, values, pullOut.refused());
      }
      return new PullOut(pullOut, cluster.config().maxMergeRows());
    }
    JoinAggregates.Plan outer = cut(t, values, "|global-outer|" + text, () -> GlobalOuterJoin.of(text, catalog()));
    return outer == null ? null : new PushBack(new Materialize(outer.inner(), outer.innerParams(), cluster.config().maxMergeRows()),
        outer, MAX_PUSHED_BYTES, "GlobalOuterJoin: the SHARDED table's rows the join can match, to one shard as a typed"
            + " JSON_TABLE under its alias; the statement runs there over the whole GLOBAL tables (each unmatched row once)");
  }

  /**
   * The statement's operator tree: a UNION's branches apart, an INSERT ... SELECT's read then writes, its derived tables read
   * first, its subqueries pulled out, a GLOBAL outer join completed, or a lookup join (under a
   * count); a join the lookup join cannot answer is given to one server ({@link PushJoin}).
   */
  Operator plan(RouteTemplate t, String text, Object[] values) throws SQLException {
    int cap = (int) Math.min(Integer.MAX_VALUE - 1, cluster.config().maxMergeRows());
    CachedCut.Key key = new CachedCut.Key(cluster.directory().catalogVersion(), cluster.schemas().loads(), cap, text);
    StepTexts plain = cluster.templates().crossShard(key, () -> {
      try {
        return planned(t, text, values) instanceof Plain p ? StepTexts.of(p.split, BATCH, cap) : null;
      } catch (SQLException | RuntimeException e) {
        return null; // planned again below, where its refusal is raised
      }
    });
    return plain != null ? new LookupJoin(plain, BATCH, cap).root() : planned(t, text, values);
  }

  /**
   * Stands for a plain lookup join while {@link #plan} finds, once per text, that its tree is one
   * (every cut above is cached by catalog version and text, and none depends on the values): it
   * then builds the join from the split and its texts ({@link StepTexts}), asking no cut again.
   */
  private record Plain(JoinSplit split) implements Operator {
    @Override
    public java.sql.ResultSet open(Runner run) {
      throw new IllegalStateException("a marker, never run");
    }

    @Override
    public String describe() {
      return "a plain lookup join";
    }

    @Override
    public String roundTrips() {
      return "";
    }

    @Override
    public List<Operator> inputs() {
      return List.of();
    }
  }

  private Operator planned(RouteTemplate t, String text, Object[] values) throws SQLException {
    UnionSplit.Plan union = UnionSplit.topLevel(t)
        ? cluster.templates().crossShard(version() + "|union|" + text, () -> UnionSplit.of(text, catalog())) : null;
    if (union != null) { // its branches run apart, combined on one shard
      return new Union(union, text, cluster.config().maxMergeRows(), MAX_PUSHED_BYTES);
    }
    if (t.insertSelect()) {
      return new InsertSelectQuery(cluster, session, this).plan(t, text);
    }
    Operator derived = DerivedQuery.plan(cluster, this, t, text);
    if (derived != null) {
      return derived;
    }
    Operator early = subqueries(t, text, values);
    if (early != null) {
      return early;
    }
    try {
      return lookupJoin(t, text, values);
    } catch (SQLException refused) {
      return pushedJoin(text, refused);
    }
  }

  private Operator lookupJoin(RouteTemplate t, String text, Object[] values) throws SQLException {
    int cap = (int) Math.min(Integer.MAX_VALUE - 1, cluster.config().maxMergeRows());
    JoinAggregates.Plan folded = folded(t, text, values);
    if (folded != null) {
      return new PushBack(new LookupJoin(split(t, folded.inner(), values), BATCH, cap, folded.innerParams()), folded,
          MAX_PUSHED_BYTES);
    }
    return new Plain(wholeNumbers(split(t, text, values)));
  }

  private static final java.util.Set<String> WHOLE_NUMBERS = java.util.Set.of("tinyint", "smallint", "mediumint", "int",
      "integer", "bigint");

  /** A column type's name: its leading word ("bigint" of "bigint(20) unsigned"). */
  private static String leadingWord(String type) {
    int end = 0;
    while (end < type.length() && (Character.isLetterOrDigit(type.charAt(end)) || type.charAt(end) == '_')) {
      end++;
    }
    return type.substring(0, end);
  }

  /** A split whose join column holds whole numbers, which the lookup join pairs; any other is refused here. */
  private JoinSplit wholeNumbers(JoinSplit split) throws SQLException {
    String type = catalog().type(split.table(), split.joinColumn().replace("`", "").toLowerCase(Locale.ROOT));
    if (type != null && !WHOLE_NUMBERS.contains(leadingWord(type.toLowerCase(Locale.ROOT)))) {
      throw ShardexError.JOIN_NOT_ON_KEY.exception(split.table(), split.joinColumn(),
          "its join column is " + type + ", and a lookup join pairs whole numbers only");
    }
    return split;
  }

  /** Each table's rows given to one server, which runs the statement over them; or the lookup join's refusal. */
  private Operator pushedJoin(String text, SQLException refused) throws SQLException {
    JoinPushdown.Plan plan;
    try {
      plan = CachedCut.of(cluster.templates(), version() + "|push-join|" + text, () -> JoinPushdown.of(text, catalog()))
          .planOr(refused);
    } catch (SQLException | RuntimeException e) {
      throw refused; // planOr's own, or the cut failed: the lookup join's refusal stands
    }
    return new PushJoin(plan, cluster.config().maxMergeRows(), MAX_PUSHED_BYTES);
  }

  /**
   * A SELECT the merge stage refused with {@code refusal} (SHX1207: GROUP_CONCAT, WITH ROLLUP, a
   * window function, an aggregate inside an expression): its rows, read as a statement of their
   * own within shardex.maxMergeRows, given back to one shard where the statement runs whole; or
   * the refusal when it cannot be cut so.
   */
  Operator pushed(String text, SQLException refusal) throws SQLException {
    JoinAggregates.Plan plan;
    try {
      plan = CachedCut.of(cluster.templates(), version() + "|pushed|" + text, () -> JoinAggregates.of(text, catalog(), true))
          .planOr(refusal);
    } catch (SQLException | RuntimeException e) {
      throw refusal; // planOr's own, or the cut failed: the merge stage's refusal stands
    }
    long cap = cluster.config().maxMergeRows();
    return new PushBack(new Materialize(plan.inner(), plan.innerParams(), cap), plan, MAX_PUSHED_BYTES);
  }

  /** The JSON text of joined rows given back to one shard, at most (far below max_allowed_packet's 16 MB default). */
  static final long MAX_PUSHED_BYTES = 4L << 20;

  /** The cut of a statement that aggregates, groups or de-duplicates a join's rows; null for any other. */
  private JoinAggregates.Plan folded(RouteTemplate t, String text, Object[] values) throws SQLException {
    return cut(t, values, "|folded|" + text, () -> JoinAggregates.of(text, catalog()));
  }

  /** A cut that applies to some statements (null for the others), cached; its refusal named. */
  private JoinAggregates.Plan cut(RouteTemplate t, Object[] values, String key, CachedCut.Cut<JoinAggregates.Plan> cut)
      throws SQLException {
    return CachedCut.of(cluster.templates(), version() + key, cut).plan(reason -> refusal(t, values, reason));
  }

  Outcome run(RouteTemplate t, Object[] values, String text, Statement owner) throws SQLException {
    if (t.insertSelect()) {
      return new InsertSelectQuery(cluster, session, this).run(t, text, values, owner);
    }
    return runner(owner, values, false).run(plan(t, text, values));
  }

  /** The runner for one statement's tree: its steps run back through the pipeline. */
  Runner runner(Statement owner, Object[] values, boolean analyse) {
    return new Runner(session, cluster.fanout(), owner, values, cluster.config().maxMergeRows(), steps(owner), analyse);
  }

  /** How a tree's steps run: routed through the pipeline, or (a text the driver wrote) on one shard as it is. */
  Runner.Steps steps(Statement owner) {
    return new Runner.Steps() {
      @Override
      public Outcome run(String sql, Object[] values, Runner runner) throws SQLException {
        return step(sql, values, owner, MergeSource.step(sql, values));
      }

      @Override
      public Outcome counted(String sql, Object[] values, Runner runner) throws SQLException {
        return step(sql, values, owner, MergeSource.counted(sql, values));
      }

      @Override
      public Outcome direct(String sql, Object[] values) throws SQLException {
        Integer shard = session.transactionShard();
        RoutePlan plan = RoutePlan.one(shard != null ? shard : cluster.directory().anyReadableShard(), false);
        ShardCall call = (lease, s, p) -> {
          PreparedStatement ps = lease.prepare(sql, false);
          ShardexStatement.configure(owner, lease, ps);
          MergeSource.bindLiterals(ps, all(values.length), values);
          ps.execute();
          return ps;
        };
        return Runner.route(plan, session, call, false, owner, "SELECT", cluster.fanout());
      }
    };
  }

  Outcome step(String sql, Object[] values, Statement owner, MergeSource merge) throws SQLException {
    RouteTemplate t = cluster.templates().prepared(sql);
    boolean read = t.type() == dev.shardex.driver.sql.StatementType.SELECT; // executeQuery: no read-only scan of the text
    ShardCall call = (lease, shard, plan) -> {
      ShardSql q = plan.sqlFor(sql, shard);
      int[] chosen = q.params() == null ? all(values.length) : q.params();
      String inlined = InlinedNumbers.of(q.text(), chosen, values);
      if (inlined != null) { // whole numbers only (join values, keys): the text Connector/J would send, unbound
        Statement st = lease.statement();
        ShardexStatement.configure(owner, lease, st);
        if (read) {
          st.executeQuery(lease.sql(inlined));
        } else {
          st.execute(lease.sql(inlined));
        }
        return st;
      }
      PreparedStatement ps = lease.prepare(q.text(), false);
      ShardexStatement.configure(owner, lease, ps);
      MergeSource.bindLiterals(ps, chosen, values);
      if (read) {
        ps.executeQuery();
      } else {
        ps.execute();
      }
      return ps;
    };
    return pipeline.run(t, values, sql, call, false, owner, merge);
  }

  private static int[] all(int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }

  /** The catalog the cross-shard cuts read: declarations, lookups and the tables' columns. */
  JoinSplitter.Catalog catalog() {
    return new ClusterCatalog(cluster);
  }

  /**
   * The statement's own refusal when no cross-shard step answers it: routed again as a dry run
   * without cross-shard steps; a join not on the key gets the reason the lookup join gave.
   */
  private SQLException refusal(RouteTemplate t, Object[] values, String reason) throws SQLException {
    try {
      Router.route(t, values, cluster.routeContext(session.transactionShard(), session.heldGuards()).singleStepDryRun());
    } catch (SQLException e) {
      if (!ShardexError.JOIN_NOT_ON_KEY.is(e)) {
        return e;
      }
    }
    return joinRefusal(t, reason);
  }

  private SQLException joinRefusal(RouteTemplate t, String reason) throws SQLException {
    List<String> names = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (TableRef ref : t.tables()) {
      TableDef def = cluster.directory().table(ref.name());
      if (def != null && def.kind() == TableKind.SHARDED && !names.contains(def.name())) {
        names.add(def.name());
        keys.add(def.name() + "." + def.keyColumn());
      }
    }
    return ShardexError.JOIN_NOT_ON_KEY.exception(String.join(", ", names), String.join(", ", keys),
        "a cross-shard lookup join does not apply (" + reason + ")");
  }
}
