package dev.shardex.driver.execute;

import dev.shardex.directory.catalog.Shard;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commit of an {@code atomic} transaction that reached further shards ("Logging Last Resource").
 * The first shard (the origin) runs a plain local transaction; every further shard is an XA
 * branch. The order is the protocol:
 *
 * <ol>
 *   <li>XA END and XA PREPARE every branch (a failure rolls everything back);
 *   <li>write the commit record into {@code shardex.llr_commits} on the origin, inside its still
 *       open local transaction;
 *   <li>COMMIT the origin: the commit point. The record exists exactly when the origin committed;
 *   <li>XA COMMIT every branch (a branch that misses it stays prepared, and recovery commits it
 *       because the record exists).
 * </ol>
 *
 * A transaction that stays on one shard never gets here: it is the origin's local commit alone.
 */
public final class AtomicCommit {
  private static final Logger LOG = LoggerFactory.getLogger(AtomicCommit.class);
  static final String PREFIX = "sha-";

  /** The steps a crash test can stop at. */
  public enum Step { PREPARED, BEFORE_COMMIT_POINT, AFTER_COMMIT_POINT, BRANCH_COMMITTED }

  /** A test seam run at every step (shard = the branch, or the origin; connections = all, by shard). */
  public interface Fault {
    void at(Step step, int shard, String gtrid, Map<Integer, Connection> connections);
  }

  public static volatile Fault faultForTests = (step, shard, gtrid, connections) -> { };

  private AtomicCommit() {}

  /** sha-ORIGIN.CONNID-CLIENT-N: recovery finds the origin, its connection and its driver instance in it. */
  static String gtrid(int origin, long originConnection, String clientId, long n) {
    return PREFIX + origin + "." + originConnection + "-" + XaCoordinator.clientTag(clientId) + "-" + n;
  }

  /** The origin shard named by a gtrid of this protocol. */
  static int origin(String gtrid) {
    return Integer.parseInt(gtrid.substring(PREFIX.length(), gtrid.indexOf('.')));
  }

  /** The server connection id of the origin's transaction. */
  static long originConnection(String gtrid) {
    int dot = gtrid.indexOf('.');
    return Long.parseLong(gtrid.substring(dot + 1, gtrid.indexOf('-', dot)));
  }

  /** Connector/J's server thread id of a (pooled) connection: no round trip. */
  public static long connectionId(Connection c) throws SQLException {
    return c.unwrap(com.mysql.cj.MysqlConnection.class).getSession().getThreadId();
  }

  static void commit(int origin, Connection originConnection, Map<Integer, Connection> branches, String gtrid,
      ShardPools pools, Shard originShard) throws SQLException {
    Fault fault = faultForTests;
    Map<Integer, Connection> all = new java.util.TreeMap<>(branches);
    all.put(origin, originConnection);
    try {
      for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
        execute(b.getValue(), "XA END " + XaCoordinator.xid(gtrid, b.getKey()));
      }
      for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
        execute(b.getValue(), "XA PREPARE " + XaCoordinator.xid(gtrid, b.getKey()));
        fault.at(Step.PREPARED, b.getKey(), gtrid, all);
      }
      fault.at(Step.BEFORE_COMMIT_POINT, origin, gtrid, all);
      CommitRecords.writeCommit(originConnection, originShard, gtrid, branches.keySet());
    } catch (SQLException e) {
      rollback(originConnection, branches, gtrid);
      throw ShardexError.ATOMIC_ROLLED_BACK.withCause(e, gtrid, shards(origin, branches), e.getMessage());
    }
    try {
      originConnection.commit();
    } catch (SQLException e) {
      String outcome = outcomeAfterFailedCommit(pools, originShard, gtrid);
      if (outcome == null) {
        throw ShardexError.ATOMIC_UNKNOWN.withCause(e, gtrid, origin, e.getMessage(), origin);
      }
      if (!outcome.equals("C")) {
        XaCoordinator.rollbackAll(branches, gtrid);
        throw ShardexError.ATOMIC_ROLLED_BACK.withCause(e, gtrid, shards(origin, branches), e.getMessage());
      }
    }
    fault.at(Step.AFTER_COMMIT_POINT, origin, gtrid, all);
    boolean allCommitted = true;
    for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
      try {
        execute(b.getValue(), "XA COMMIT " + XaCoordinator.xid(gtrid, b.getKey()));
        fault.at(Step.BRANCH_COMMITTED, b.getKey(), gtrid, all);
      } catch (SQLException e) {
        allCommitted = false;
        // committed by the record; recovery finishes this branch when its shard answers again
        LOG.warn("Shardex atomic {}: shard {} did not take XA COMMIT ({}); recovery will commit it", gtrid, b.getKey(),
            e.getMessage());
      }
    }
    if (allCommitted) {
      CommitRecords.resolved(originShard, gtrid);
    }
  }

  /** Ends a transaction before its commit point: the origin rolls back, every branch too. */
  static void rollback(Connection originConnection, Map<Integer, Connection> branches, String gtrid) {
    try {
      if (originConnection != null) {
        originConnection.rollback();
      }
    } catch (SQLException e) {
      // a dead origin connection has rolled back on the server already
    }
    for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
      try {
        execute(b.getValue(), "XA END " + XaCoordinator.xid(gtrid, b.getKey()));
      } catch (SQLException e) {
        // already ended (or prepared): XA ROLLBACK below takes it from there
      }
    }
    XaCoordinator.rollbackAll(branches, gtrid);
  }

  /**
   * The origin's COMMIT failed (its connection broke): read or force the outcome through a fresh
   * connection: 'C' if the record committed, 'A' once the tombstone aborted it, null if the
   * origin cannot be reached.
   */
  private static String outcomeAfterFailedCommit(ShardPools pools, Shard origin, String gtrid) {
    try (Connection c = pools.borrow(origin)) {
      String outcome = CommitRecords.outcome(c, gtrid);
      return outcome != null ? outcome : CommitRecords.decide(c, gtrid);
    } catch (SQLException e) {
      return null;
    }
  }

  private static String shards(int origin, Map<Integer, Connection> branches) {
    StringBuilder s = new StringBuilder().append(origin);
    branches.keySet().forEach(b -> s.append(", ").append(b));
    return s.toString();
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
