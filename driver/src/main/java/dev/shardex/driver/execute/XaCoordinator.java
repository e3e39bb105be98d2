package dev.shardex.driver.execute;

import dev.shardex.directory.Directory;
import dev.shardex.directory.xa.XaLog;
import dev.shardex.vocabulary.ShardexError;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two-phase commit over MySQL XA, coordinated by the driver with its decision log in the
 * directory.
 *
 * <p>The order is the protocol: XA END and XA PREPARE on every branch; only when all prepared is
 * the COMMIT decision written to the directory (that write is the commit point); then XA COMMIT
 * on every branch. A failure before the decision rolls every branch back. A failure after it
 * (a shard died) leaves that branch prepared, and {@link #recover} commits it once the shard is
 * back; a prepared branch without a decision is rolled back (presumed abort) once the client that
 * owns it is no longer alive.
 */
public final class XaCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(XaCoordinator.class);
  private static final String PREFIX = "shx-";

  /** Test seam: runs after every branch prepared and the decision was logged, before XA COMMIT. */
  public static volatile Consumer<String> afterDecisionForTests = gtrid -> { };

  private XaCoordinator() {}

  static String gtrid(String clientId, long n) {
    return PREFIX + clientTag(clientId) + "-" + n;
  }

  /** A driver instance's id as gtrids carry it: itself, or a hash when too long for XA's 64 bytes. */
  static String clientTag(String clientId) {
    return clientId.length() <= 40 ? clientId : Integer.toHexString(clientId.hashCode());
  }

  static String xid(String gtrid, int shard) {
    return "'" + gtrid + "','" + shard + "'";
  }

  static void start(Connection c, String gtrid, int shard) throws SQLException {
    execute(c, "XA START " + xid(gtrid, shard));
  }

  /** Ends the transaction on every branch: commit (two-phase, or one-phase for one branch) or rollback. */
  static void finish(Map<Integer, Connection> branches, String gtrid, boolean commit, XaLog log, String clientId)
      throws SQLException {
    for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
      execute(b.getValue(), "XA END " + xid(gtrid, b.getKey()));
    }
    if (!commit) {
      rollbackAll(branches, gtrid);
      return;
    }
    if (branches.size() == 1) {
      Map.Entry<Integer, Connection> only = branches.entrySet().iterator().next();
      execute(only.getValue(), "XA COMMIT " + xid(gtrid, only.getKey()) + " ONE PHASE");
      return;
    }
    try {
      for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
        execute(b.getValue(), "XA PREPARE " + xid(gtrid, b.getKey()));
      }
      log.decideCommit(gtrid, clientId, List.copyOf(branches.keySet()));
    } catch (SQLException e) {
      rollbackAll(branches, gtrid);
      throw ShardexError.DIRECTORY_STATE.withCause(e, "XA transaction " + gtrid + " rolled back on shards "
          + branches.keySet() + ": a branch could not prepare or the decision could not be logged (" + e.getMessage() + ")");
    }
    afterDecisionForTests.accept(gtrid);
    boolean all = true;
    for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
      try {
        execute(b.getValue(), "XA COMMIT " + xid(gtrid, b.getKey()));
      } catch (SQLException e) {
        all = false; // committed by decision; recovery finishes this branch when the shard is back
        LOG.warn("Shardex XA {}: shard {} did not take XA COMMIT ({}); recovery will commit it", gtrid, b.getKey(),
            e.getMessage());
      }
    }
    if (all) {
      log.forget(gtrid);
    }
  }

  static void rollbackAll(Map<Integer, Connection> branches, String gtrid) {
    for (Map.Entry<Integer, Connection> b : branches.entrySet()) {
      try {
        execute(b.getValue(), "XA ROLLBACK " + xid(gtrid, b.getKey()));
      } catch (SQLException e) {
        LOG.warn("Shardex XA {}: shard {} rollback failed ({}); recovery will roll it back", gtrid, b.getKey(),
            e.getMessage());
      }
    }
  }

  /**
   * Finishes prepared Shardex branches on every reachable shard: commit those with a decision,
   * roll back those without one whose client is gone. Returns how many branches it finished.
   */
  public static int recover(Directory directory, ShardPools pools, long staleAfterMs) throws SQLException {
    XaLog log = new XaLog(directory.store());
    java.util.Set<String> live = liveTags(log, staleAfterMs);
    int finished = 0;
    java.util.Set<String> stillPrepared = new java.util.HashSet<>();
    boolean allReachable = true;
    for (var shard : directory.shards().values()) {
      try (Connection c = pools.borrow(shard)) {
        for (String[] x : prepared(c)) {
          String gtrid = x[0];
          if (log.committed(gtrid)) {
            execute(c, "XA COMMIT " + xid(gtrid, Integer.parseInt(x[1])));
            finished++;
          } else if (live.stream().noneMatch(gtrid::contains)) {
            execute(c, "XA ROLLBACK " + xid(gtrid, Integer.parseInt(x[1])));
            finished++;
          } else {
            stillPrepared.add(gtrid);
          }
        }
      } catch (SQLException e) {
        allReachable = false;
      }
    }
    if (allReachable) {
      for (String gtrid : log.decisions()) {
        if (!stillPrepared.contains(gtrid)) {
          log.forget(gtrid);
        }
      }
    }
    return finished;
  }

  static java.util.Set<String> liveTags(XaLog log, long staleAfterMs) throws SQLException {
    java.util.Set<String> tags = new java.util.HashSet<>();
    log.liveClients(staleAfterMs).forEach(id -> tags.add(clientTag(id)));
    return tags;
  }

  /** [gtrid, bqual] of every prepared Shardex branch on this shard. */
  private static List<String[]> prepared(Connection c) throws SQLException {
    return prepared(c, PREFIX);
  }

  /** [gtrid, bqual] of every prepared branch on this shard whose gtrid starts with {@code prefix}. */
  static List<String[]> prepared(Connection c, String prefix) throws SQLException {
    List<String[]> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("XA RECOVER")) {
      while (rs.next()) {
        int g = rs.getInt("gtrid_length");
        int b = rs.getInt("bqual_length");
        String data = rs.getString("data");
        String gtrid = data.substring(0, g);
        if (gtrid.startsWith(prefix)) {
          out.add(new String[] {gtrid, data.substring(g, g + b)});
        }
      }
    }
    return out;
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
