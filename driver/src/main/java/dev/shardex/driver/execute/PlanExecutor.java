package dev.shardex.driver.execute;

import dev.shardex.driver.merge.Closing;
import dev.shardex.driver.merge.InMemoryResults;
import dev.shardex.driver.merge.ShardResultSet;
import dev.shardex.driver.merge.SortedMergeResultSet;
import dev.shardex.driver.route.Fanout;
import dev.shardex.driver.route.RoutePlan;
import dev.shardex.vocabulary.ShardexError;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * execute stage: runs a plan's physical statements and hands their results to the merge stage.
 *
 * <p>Order matters in two places. The transaction scope is checked before the first shard runs,
 * so a refused plan has changed nothing. A query's connection is released by its result set's
 * close (not here), so an autocommit SELECT holds its connection exactly as long as the caller
 * reads; an update's connection is released here, after its generated keys were copied.
 */
public final class PlanExecutor {
  private PlanExecutor() {}

  public static Outcome execute(RoutePlan plan, ShardAccess access, ShardCall call, boolean wantKeys, Statement owner,
      String what, Executor pool) throws SQLException {
    if (plan.fanout() != Fanout.DDL) {
      access.checkScope(plan.shards(), plan.write());
    }
    return switch (plan.fanout()) {
      case ONE -> one(plan, access, call, wantKeys, owner);
      case CONCAT -> new Outcome(SortedMergeResultSet.concat(parallel(plan, access, call, owner, pool), owner), -1, null);
      case REPLICATE, SUM, DDL -> everywhere(plan, access, call, what);
      case MERGE -> throw new IllegalStateException("a MERGE plan goes to the merge stage, not here");
      case HOLD -> throw new IllegalStateException("a HOLD plan is held by the pipeline, not run");
      case JOIN -> throw new IllegalStateException("a JOIN plan runs its own statements, not here");
    };
  }

  /**
   * Runs a read on every shard of the plan at once and returns the shards' result sets in shard
   * order: the first shard on the caller's thread, the others on the bounded fan-out pool. If any
   * shard fails, the others are closed and its error, naming the shard, is thrown.
   */
  public static List<ShardResultSet> parallel(RoutePlan plan, ShardAccess access, ShardCall call, Statement owner,
      Executor pool) throws SQLException {
    List<Integer> shards = plan.shards();
    int n = shards.size();
    @SuppressWarnings({"unchecked", "rawtypes"}) // Java has no generic array creation
    CompletableFuture<ShardResultSet>[] others = new CompletableFuture[n];
    for (int i = 1; i < n; i++) {
      int shard = shards.get(i);
      others[i] = CompletableFuture.supplyAsync(() -> {
        try {
          return readOne(shard, plan, access, call, owner);
        } catch (SQLException e) {
          throw new CompletionException(e);
        }
      }, pool);
    }
    ShardResultSet[] parts = new ShardResultSet[n];
    SQLException error = null;
    RuntimeException bug = null;
    try {
      parts[0] = readOne(shards.get(0), plan, access, call, owner);
    } catch (SQLException e) {
      error = e;
    } catch (RuntimeException e) {
      bug = e;
    }
    for (int i = 1; i < n; i++) {
      try {
        parts[i] = others[i].join();
      } catch (CompletionException e) {
        SQLException cause = e.getCause() instanceof SQLException sql ? sql
            : ShardexError.SHARD_READ_FAILED.withCause(e.getCause(), e.getCause());
        if (error == null) {
          error = cause;
        } else {
          error.setNextException(cause);
        }
      }
    }
    if (error != null || bug != null) {
      closeQuietly(parts);
      if (bug != null) {
        throw bug;
      }
      throw error;
    }
    return java.util.Arrays.asList(parts);
  }

  private static ShardResultSet readOne(int shard, RoutePlan plan, ShardAccess access, ShardCall call, Statement owner)
      throws SQLException {
    ShardLease lease = access.acquire(shard, false, true);
    Statement st;
    while ((st = ran(lease, access, call, shard, plan)) == null) {
      lease = onPrimary(lease, access, shard);
    }
    try {
      return new ShardResultSet(st.getResultSet(), owner, lease);
    } catch (SQLException | RuntimeException e) {
      throw failed(lease, e);
    }
  }

  private static Outcome one(RoutePlan plan, ShardAccess access, ShardCall call, boolean wantKeys, Statement owner)
      throws SQLException {
    ShardLease lease = access.acquire(plan.single(), plan.write(), true);
    Statement st;
    while ((st = ran(lease, access, call, plan.single(), plan)) == null) {
      lease = onPrimary(lease, access, plan.single());
    }
    try {
      return outcome(st, lease, wantKeys, owner);
    } catch (SQLException | RuntimeException e) {
      throw failed(lease, e);
    }
  }

  /**
   * Runs one shard's share on the lease: its statement, or null when the lease is a replica's and the
   * read must run again on the primary (it did not catch up with its connection's write, or failed there).
   */
  private static Statement ran(ShardLease lease, ShardAccess access, ShardCall call, int shard, RoutePlan plan)
      throws SQLException {
    try {
      access.metrics().roundTrip();
      Statement st = call.run(lease, shard, plan);
      return !lease.onReplica() || lease.caughtUp(st) ? st : null;
    } catch (SQLException e) {
      if (lease.retriesOnPrimary(e)) {
        return null;
      }
      throw failed(lease, e);
    } catch (RuntimeException e) {
      throw failed(lease, e);
    }
  }

  /** A replica's read that must run again: the primary's lease instead. */
  private static ShardLease onPrimary(ShardLease replica, ShardAccess access, int shard) throws SQLException {
    closeQuietly(replica);
    return access.primary(shard);
  }

  /**
   * The lease's failure: an SQLException named for its shard (SHX1401 when unreachable), a bug as it
   * is; the connection goes back either way.
   */
  private static SQLException failed(ShardLease lease, Exception e) {
    if (e instanceof RuntimeException bug) {
      closeQuietly(lease);
      throw bug;
    }
    SQLException named = lease.translate((SQLException) e);
    closeQuietly(lease);
    return named;
  }

  /** A single shard's statement, run: its rows (the lease closes with them), or its count and keys (the lease closes now). */
  private static Outcome outcome(Statement st, ShardLease lease, boolean wantKeys, Statement owner) throws SQLException {
    ResultSet rs = st.getResultSet();
    if (rs != null) {
      return new Outcome(new ShardResultSet(rs, owner, lease), -1, null);
    }
    long count = st.getLargeUpdateCount();
    ResultSet keys = wantKeys ? InMemoryResults.copy(st.getGeneratedKeys()) : null;
    long id = insertId(st);
    lease.close();
    return Outcome.count(count, keys, id);
  }

  /** A write on several shards: all are tried; a partial failure names who applied and who did not. */
  private static Outcome everywhere(RoutePlan plan, ShardAccess access, ShardCall call, String what) throws SQLException {
    long total = 0;
    long first = -1;
    long id = 0;
    List<Integer> applied = new ArrayList<>();
    List<Integer> failed = new ArrayList<>();
    SQLException error = null;
    java.sql.SQLWarning report = null;
    boolean mayPin = plan.fanout() != Fanout.DDL;
    for (int shard : plan.shards()) {
      try (ShardLease lease = access.acquire(shard, true, mayPin)) {
        access.metrics().roundTrip();
        try {
          Statement st = call.run(lease, shard, plan);
          long n = Math.max(0, st.getLargeUpdateCount());
          total += n;
          first = first < 0 ? n : first;
          id = id == 0 && holdsFirstRow(plan, shard) ? insertId(st) : id;
          applied.add(shard);
          java.sql.SQLWarning line = new java.sql.SQLWarning("Shardex: shard " + shard + ": applied", "01000");
          if (report == null) {
            report = line;
          } else {
            report.setNextWarning(line);
          }
        } catch (SQLException e) {
          throw lease.translate(e);
        }
      } catch (SQLException e) {
        failed.add(shard);
        if (error == null) {
          error = e;
        } else {
          error.setNextException(e);
        }
      }
    }
    if (error != null) {
      if (applied.isEmpty()) {
        throw error;
      }
      ShardexError partial = plan.fanout() == Fanout.DDL ? ShardexError.DDL_PARTIAL : ShardexError.WRITE_PARTIAL;
      throw partial.withCause(error, what, join(applied), join(failed), firstLine(error.getMessage()));
    }
    long count = plan.fanout() == Fanout.SUM ? total : Math.max(first, 0);
    return new Outcome(null, count, null, plan.fanout() == Fanout.DDL ? report : null, id);
  }

  /**
   * The id the shard's OK packet carried: the first id this statement generated there, an explicit
   * id it inserted, or the value of LAST_INSERT_ID(expr). Connector/J keeps it on the statement: no round trip.
   */
  public static long insertId(Statement st) throws SQLException {
    Class<com.mysql.cj.jdbc.StatementImpl> cj = com.mysql.cj.jdbc.StatementImpl.class;
    return st.isWrapperFor(cj) ? st.unwrap(cj).getLastInsertID() : 0;
  }

  /** Whether this shard got the statement's first row (a split INSERT), or is the first shard of any other write. */
  private static boolean holdsFirstRow(RoutePlan plan, int shard) {
    int[] rows = plan.rowsFor(shard);
    return rows == null ? shard == plan.shards().get(0) : rows.length > 0 && rows[0] == 0;
  }

  private static void closeQuietly(AutoCloseable... all) {
    try {
      Closing.closeAll(java.util.Arrays.asList(all));
    } catch (SQLException ignored) {
      // the statement's own error is the one worth reporting
    }
  }

  private static String join(List<Integer> shards) {
    StringBuilder s = new StringBuilder();
    shards.forEach(id -> s.append(s.length() == 0 ? "" : ", ").append(id));
    return s.toString();
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse(s);
  }
}
